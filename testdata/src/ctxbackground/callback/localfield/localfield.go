// Package localfield keeps a function it is given in a field of a struct of its own, as
// ctxbackground/callback/memo does across packages: a batch made with newBatch(s.markSynced)
// runs markSynced when it is flushed, so flushing it with the request's ctx loses the deadline
// when markSynced works on a root of its own.
package localfield

import (
	"context"
	"database/sql"

	"example.com/gen/catalogpb"
)

// batch collects values and sends them together.
type batch[T any] struct {
	items []T
	send  func(context.Context, []T) error
}

func newBatch[T any](send func(context.Context, []T) error) *batch[T] {
	return &batch[T]{send: send}
}

func (b *batch[T]) add(v T) { b.items = append(b.items, v) }

// flush sends the items with the ctx it is given.
func (b *batch[T]) flush(ctx context.Context) error {
	if len(b.items) == 0 {
		return nil
	}
	err := b.send(ctx, b.items)
	b.items = b.items[:0]
	return err
}

// count never runs the field.
func (b *batch[T]) count(ctx context.Context) int { return len(b.items) }

type Server struct {
	catalogpb.UnimplementedCatalogServer
	db *sql.DB
}

// markSynced ignores its ctx and writes on a root.
func (s *Server) markSynced(_ context.Context, ids []string) error { // want markSynced:"drops ctx"
	for _, id := range ids {
		if _, err := s.db.ExecContext(context.Background(), "UPDATE items SET synced = true WHERE id = $1", id); err != nil {
			return err
		}
	}
	return nil
}

// move writes with the ctx it is given.
func (s *Server) move(ctx context.Context, ids []string) error {
	for _, id := range ids {
		if _, err := s.db.ExecContext(ctx, "UPDATE items SET shard = 2 WHERE id = $1", id); err != nil {
			return err
		}
	}
	return nil
}

func (s *Server) GetItem(ctx context.Context, req *catalogpb.GetItemRequest) (*catalogpb.Item, error) {
	marks := newBatch(s.markSynced)
	moves := newBatch(s.move)
	marks.add(req.GetId())
	moves.add(req.GetId())
	_ = marks.count(ctx)                     // never runs markSynced: silent
	if err := moves.flush(ctx); err != nil { // move passes the request's ctx on: silent
		return nil, err
	}
	if err := marks.flush(ctx); err != nil { // want `localfield\.Server\.markSynced, called in handler Server\.GetItem, works with context\.Background\(\); pass ctx down`
		return nil, err
	}
	return &catalogpb.Item{Id: req.GetId()}, nil
}
