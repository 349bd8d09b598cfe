// Package generickey holds a handler that hands root contexts to work that only reads values
// from them: a notifier reading a dependency's generic context key, whose Value calls its
// ValueOk (a generic method calling another); the same shape in the user's own code; and
// logrus's WithContext and zerolog's Event.Ctx, which keep the ctx in the entry for the hooks
// that read its values. Nothing a deadline bounds runs with those roots: nothing is reported.
// A generic method that waits on its ctx, or hands it to a query, is work: a root handed to it
// is.
package generickey

import (
	"context"
	"database/sql"

	"ctxbackground/generickey/label"
	"example.com/ctxkey"
	"example.com/gen/catalogpb"
	"github.com/rs/zerolog"
	"github.com/sirupsen/logrus"
)

var origin = ctxkey.New("origin", "")

type notifier struct{ updates chan string }

// notifyAll labels the update with where it comes from and queues it for every watcher.
func (n *notifier) notifyAll(ctx context.Context, update string) {
	n.updates <- origin.Value(ctx) + ":" + update
}

// notifyCtx names where a notification comes from.
func notifyCtx(ctx context.Context, from string) context.Context { return origin.WithValue(ctx, from) }

// check logs through logrus with its ctx, and does nothing else with it.
func check(ctx context.Context, id string) bool {
	ok := id != ""
	if !ok {
		logrus.WithContext(ctx).Debugf("empty id")
	}
	return ok
}

// Server serves the catalog.
type Server struct {
	catalogpb.UnimplementedCatalogServer
	n   *notifier
	log *logrus.Logger
	db  *sql.DB
}

func (s *Server) GetItem(ctx context.Context, req *catalogpb.GetItemRequest) (*catalogpb.Item, error) {
	s.n.notifyAll(notifyCtx(context.Background(), "get"), req.GetId())         // only its value read: silent
	_ = label.Tenant.Get(context.TODO())                                       // the user's own generic key: silent
	logrus.WithContext(context.Background()).Debugf("get %s", req.GetId())     // kept for the hooks: silent
	s.log.WithContext(context.TODO()).WithField("id", req.GetId()).Info("get") // silent
	zerolog.Info().Ctx(context.TODO()).Msg("get")                              // kept for the hooks: silent
	_ = check(context.Background(), req.GetId())                               // a helper that only logs: silent
	if _, err := origin.Wait(context.Background()); err != nil {               // want `context.Background\(\) in handler Server.GetItem drops the caller's deadline`
		return nil, err
	}
	if err := label.Tenant.Refresh(context.TODO(), s.db); err != nil { // want `context.TODO\(\) in handler Server.GetItem drops the caller's deadline`
		return nil, err
	}
	return &catalogpb.Item{Id: req.GetId()}, nil
}
