// Package whendone replaces a ctx with a fresh one only once that ctx is done: an audit writer
// that must still record what a cancelled request did. Its caller's deadline is gone by then,
// so the root loses nothing — in a helper (not a fact) and in the handler (not reported) alike.
// A root made when the ctx is not done, or whatever its state, is still a drop.
package whendone

import (
	"context"
	"errors"
	"time"

	"example.com/gen/catalogpb"
)

type sink struct{}

func (sink) Write(ctx context.Context, msg string) error { return ctx.Err() }

var audit sink

// sendCtx is the ctx an event is written with: the caller's, or, once that is cancelled, a
// short budget of its own.
func sendCtx(ctx context.Context) (context.Context, context.CancelFunc) {
	if ctx.Err() == context.Canceled {
		return context.WithTimeout(context.Background(), time.Second)
	}
	return ctx, func() {}
}

// Record writes an event with sendCtx: no fact.
func Record(ctx context.Context, msg string) {
	sctx, cancel := sendCtx(ctx)
	defer cancel()
	_ = audit.Write(sctx, msg)
}

// RecordDone asks the other way round.
func RecordDone(ctx context.Context, msg string) {
	if ctx.Err() != nil {
		_ = audit.Write(context.Background(), msg)
		return
	}
	_ = audit.Write(ctx, msg)
}

// RecordIs asks with errors.Is.
func RecordIs(ctx context.Context, msg string) {
	wctx := ctx
	if errors.Is(ctx.Err(), context.DeadlineExceeded) {
		wctx = context.Background()
	}
	_ = audit.Write(wctx, msg)
}

// RecordAlive makes its root while the ctx is still alive: a drop.
func RecordAlive(ctx context.Context, msg string) { // want RecordAlive:"drops ctx"
	if ctx.Err() == nil {
		_ = audit.Write(context.Background(), msg)
	}
}

// RecordAlways makes its root whatever the ctx's state.
func RecordAlways(ctx context.Context, msg string) { // want RecordAlways:"drops ctx"
	_ = ctx.Err()
	_ = audit.Write(context.Background(), msg)
}

type Server struct {
	catalogpb.UnimplementedCatalogServer
}

func (s *Server) GetItem(ctx context.Context, req *catalogpb.GetItemRequest) (*catalogpb.Item, error) {
	Record(ctx, "get "+req.GetId())
	RecordDone(ctx, "get")
	RecordIs(ctx, "get")
	if ctx.Err() != nil {
		_ = audit.Write(context.Background(), "cancelled") // silent: the request is already over
	}
	RecordAlive(ctx, "get")  // want `whendone.RecordAlive, called in handler Server.GetItem, works with context.Background\(\)`
	RecordAlways(ctx, "get") // want `whendone.RecordAlways, called in handler Server.GetItem, works with context.Background\(\)`
	return &catalogpb.Item{Id: req.GetId()}, nil
}
