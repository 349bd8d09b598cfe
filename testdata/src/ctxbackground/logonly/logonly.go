// Package logonly holds a handler that logs with root contexts through a logger of a dependency
// that only reads the ctx's fields and span, through slog, and through a helper of its own that
// only logs: a log line's fields are lost, not a deadline, and nothing is reported. A root that
// also reaches work, or is handed to a logger that waits on it, or to a stub that never looks
// at its ctx (what a call of it means to do with one is not known), is reported.
package logonly

import (
	"context"
	"log/slog"

	"example.com/gen/catalogpb"
	"example.com/mlog"
)

type db interface {
	Exec(ctx context.Context, q string) error
}

type traceKey struct{}

// Server serves the catalog.
type Server struct {
	catalogpb.UnimplementedCatalogServer
	db db
}

// note only logs with its ctx.
func (s *Server) note(ctx context.Context, msg string) { mlog.Info(ctx, msg) }

// keep never looks at its ctx: a root handed to it loses nothing.
func (s *Server) keep(ctx context.Context, id string) {}

func (s *Server) GetItem(ctx context.Context, req *catalogpb.GetItemRequest) (*catalogpb.Item, error) {
	defer mlog.Info(context.TODO(), "done")                              // a deferred log line: silent
	defer s.keep(context.TODO(), req.GetId())                            // never looked at: silent
	mlog.Info(context.TODO(), "get", req.GetId())                        // only logged: silent
	mlog.Info(mlog.With(context.Background(), "id", req.GetId()), "get") // derived, still only logged: silent
	lctx := context.WithValue(context.Background(), traceKey{}, req.GetId())
	mlog.Info(lctx, "derived")                    // silent
	slog.InfoContext(context.Background(), "get") // silent
	s.note(context.TODO(), "noted")               // a helper that only logs: silent
	_ = mlog.Ship(context.Background(), "get")    // want `context.Background\(\) in handler Server.GetItem drops the caller's deadline`
	s.keep(context.TODO(), req.GetId())           // never looked at: silent
	root := context.Background()                  // want `context.Background\(\) in handler Server.GetItem drops the caller's deadline`
	mlog.Info(root, "load")
	if err := s.db.Exec(root, "select"); err != nil {
		return nil, err
	}
	return &catalogpb.Item{Id: req.GetId()}, nil
}
