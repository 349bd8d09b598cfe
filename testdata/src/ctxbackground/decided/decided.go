// Package decided holds a shard service whose helpers give some work a fresh, bounded budget
// of its own. Where the helper works with its caller's ctx and picks a fresh budget for one
// piece of work beside it — a rollback that must run when the caller's budget is spent — that
// was decided, and is not reported. Where the helper ignores the ctx it takes, or swaps it for
// the fresh one on a branch, the caller's deadline is lost.
package decided

import (
	"context"
	"time"

	"example.com/gen/catalogpb"
	"go.opentelemetry.io/otel/trace"
)

type db interface {
	Exec(ctx context.Context, q string) error
}

// Shards moves shards between nodes.
type Shards struct {
	db db
}

// Move copies a shard with the caller's ctx; when the copy fails it undoes the half-done move
// with a budget of its own, since the caller's may be what ran out.
func (s *Shards) Move(ctx context.Context, id string) error {
	if err := s.db.Exec(ctx, "copy "+id); err != nil {
		rctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		_ = s.db.Exec(rctx, "undo "+id)
		return err
	}
	return nil
}

// Drop takes a ctx and never works with it: every statement runs on a fresh budget.
func (s *Shards) Drop(ctx context.Context, id string) error { // want Drop:"drops ctx"
	dctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	return s.db.Exec(dctx, "drop "+id)
}

// Rebalance swaps the caller's ctx for a fresh one when the move is long: the same work, on a
// budget that is not the caller's.
func (s *Shards) Rebalance(ctx context.Context, id string, long bool) error { // want Rebalance:"drops ctx"
	base := ctx
	if long {
		base = context.Background()
	}
	bctx, cancel := context.WithTimeout(base, time.Minute)
	defer cancel()
	return s.db.Exec(bctx, "rebalance "+id)
}

type reqIDKey struct{}

// audit notes an event with the caller's request ID: it only reads a value out of its ctx.
func audit(ctx context.Context, msg string) {
	id, _ := ctx.Value(reqIDKey{}).(string)
	_ = id + msg
}

// Fetch only notes the fetch with the ctx it takes, then fetches on a fresh budget: the note
// keeps nothing of the caller's deadline, so the fetch loses it.
func (s *Shards) Fetch(ctx context.Context, id string) error { // want Fetch:"drops ctx"
	audit(ctx, "fetch "+id)
	fctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	return s.db.Exec(fctx, "fetch "+id)
}

// Shadow replays a move on a fresh budget that keeps the caller's trace, in a literal as a
// panic guard would run it: the caller's values lent to a budget of its own — a detach
// decided and bounded, the WithTimeout(WithoutCancel(ctx), d) of code before Go 1.21.
func (s *Shards) Shadow(ctx context.Context, id string) {
	span := trace.SpanFromContext(ctx)
	func() {
		sctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		sctx = trace.ContextWithSpan(sctx, span)
		_ = s.db.Exec(sctx, "shadow "+id)
	}()
	audit(ctx, "shadowed "+id)
}

// Server serves the catalog and moves shards for it.
type Server struct {
	catalogpb.UnimplementedCatalogServer
	shards *Shards
}

func (s *Server) GetItem(ctx context.Context, req *catalogpb.GetItemRequest) (*catalogpb.Item, error) {
	if err := s.shards.Move(ctx, req.GetId()); err != nil { // a decided rollback: silent
		return nil, err
	}
	if err := s.shards.Drop(ctx, req.GetId()); err != nil { // want `decided\.Shards\.Drop, called in handler Server\.GetItem, works with context\.Background\(\); pass ctx down`
		return nil, err
	}
	if err := s.shards.Rebalance(ctx, req.GetId(), true); err != nil { // want `decided\.Shards\.Rebalance, called in handler Server\.GetItem, works with context\.Background\(\); pass ctx down`
		return nil, err
	}
	if err := s.shards.Fetch(ctx, req.GetId()); err != nil { // want `decided\.Shards\.Fetch, called in handler Server\.GetItem, works with context\.Background\(\); pass ctx down`
		return nil, err
	}
	s.shards.Shadow(ctx, req.GetId()) // the caller's trace on a budget of its own: silent
	return &catalogpb.Item{Id: req.GetId()}, nil
}
