// Package outofsight holds a ctxflow case of an interface whose one implementation in sight
// only logs: the server's value of it is set out of sight (an option, main), so the call may reach
// one that does work, and a long-lived ctx given to it is still reported.
package outofsight

import (
	"context"
	"log/slog"

	"example.com/gen/catalogpb"
)

// Journal records events.
type Journal interface {
	Record(ctx context.Context, event string) error
}

// nopJournal is the journal of a server with journaling turned off: it only logs.
type nopJournal struct{}

func (nopJournal) Record(ctx context.Context, event string) error {
	slog.DebugContext(ctx, "journal disabled", "event", event)
	return nil
}

var _ Journal = nopJournal{}

// Server's journal is set by an option out of sight.
type Server struct {
	catalogpb.UnimplementedCatalogServer
	base    context.Context
	journal Journal
}

func (s *Server) GetItem(ctx context.Context, req *catalogpb.GetItemRequest) (*catalogpb.Item, error) {
	if err := s.journal.Record(s.base, req.GetId()); err != nil { // want `Journal\.Record in handler Server\.GetItem uses receiver field base, a ctx that outlives the request; pass ctx`
		return nil, err
	}
	return &catalogpb.Item{Id: req.GetId()}, nil
}
