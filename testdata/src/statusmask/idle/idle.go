// Package idle translates errors of a dependency's functions given the request's ctx. A
// function that never refers to its ctx, or hands it only to one that does not, returns no
// error of it: turning its error into Internal masks nothing. One that waits on its ctx may
// return the request's deadline.
package idle

import (
	"context"

	"example.com/gen/catalogpb"
	"example.com/tsdb"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
)

// appendable is what the writer appends to; every implementation in sight is in memory.
type appendable interface {
	Appender(ctx context.Context) (*tsdb.Appender, error)
}

type adapter struct{ db *tsdb.DB }

func (a adapter) Appender(ctx context.Context) (*tsdb.Appender, error) {
	return a.db.Appender(ctx), nil
}

type Server struct {
	catalogpb.UnimplementedCatalogServer
	db  *tsdb.DB
	app appendable
}

// write appends through the interface: its ctx reaches no work.
func (s *Server) write(ctx context.Context, v float64) error {
	app, err := s.app.Appender(ctx)
	if err != nil {
		return err
	}
	if err := app.Append(v); err != nil {
		return err
	}
	return app.Commit()
}

func (s *Server) GetItem(ctx context.Context, req *catalogpb.GetItemRequest) (*catalogpb.Item, error) {
	if err := s.db.Compact(ctx, len(req.GetId())); err != nil {
		return nil, status.Error(codes.Internal, err.Error()) // never the ctx's error: silent
	}
	if err := s.write(ctx, 1); err != nil {
		return nil, status.Error(codes.Internal, err.Error()) // in memory through an interface: silent
	}
	if err := s.db.Snapshot(ctx); err != nil {
		return nil, status.Error(codes.Internal, err.Error()) // want `status\.Error gives code codes\.Internal to the error of DB\.Snapshot`
	}
	return &catalogpb.Item{Id: req.GetId()}, nil
}
