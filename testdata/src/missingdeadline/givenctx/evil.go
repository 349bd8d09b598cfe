package givenctx

import (
	"context"
	"time"

	"golang.org/x/sync/errgroup"

	"example.com/gen/catalogpb"
)

// Every root below is made by a function given a ctx, but the ctx is not plainly dropped: the
// work outlives the function, or the function checks, cancels or replaces its ctx, or has two.
// The fresh root may be what it needs; it only lacks a deadline.

// poll calls an RPC on every tick.
func (w *Writer) poll(ctx context.Context) {
	for range time.Tick(time.Second) {
		_, _ = w.c.GetItem(ctx, &catalogpb.GetItemRequest{Id: "tick"})
	}
}

// Start starts a loop that outlives it.
func (w *Writer) Start(ctx context.Context) {
	go w.poll(context.Background()) // want `add one with context\.WithTimeout$`
}

// StartCaptured hands the root to a goroutine through a variable.
func (w *Writer) StartCaptured(ctx context.Context) {
	bg := context.Background()
	go func() {
		_, _ = w.c.GetItem(bg, &catalogpb.GetItemRequest{Id: "bg"}) // want `add one with context\.WithTimeout$`
	}()
}

// StartCancellable gives the loop a lifetime of its own, ended by the cancel it returns.
func (w *Writer) StartCancellable(ctx context.Context) context.CancelFunc {
	cctx, cancel := context.WithCancel(context.Background())
	go w.poll(cctx) // want `add one with context\.WithTimeout$`
	return cancel
}

// Abandon runs once its ctx has failed.
func (w *Writer) Abandon(ctx context.Context, id string) error {
	if ctx.Err() != nil {
		_, _ = w.c.GetItem(context.Background(), &catalogpb.GetItemRequest{Id: "abandon"}) // want `add one with context\.WithTimeout$`
		return ctx.Err()
	}
	return nil
}

// Summary runs after an errgroup whose ctx Wait cancels.
func (w *Writer) Summary(ctx context.Context, ids []string) error {
	g, ctx := errgroup.WithContext(ctx)
	for _, id := range ids {
		g.Go(func() error { return validate(id) })
	}
	err := g.Wait()
	_, _ = w.c.GetItem(context.Background(), &catalogpb.GetItemRequest{Id: "summary"}) // want `add one with context\.WithTimeout$`
	return err
}

// Replace replaces its ctx with a root: told to keep it, but no fix (ctx = ctx).
func (w *Writer) Replace(ctx context.Context, id string) error {
	ctx = context.Background()
	_, err := w.c.GetItem(ctx, &catalogpb.GetItemRequest{Id: id}) // want `use the ctx Writer\.Replace is given$`
	return err
}

// Copy is given two ctxs: which one the work is for is not known.
func (w *Writer) Copy(src, dst context.Context, id string) error {
	_, err := w.c.GetItem(context.Background(), &catalogpb.GetItemRequest{Id: id}) // want `add one with context\.WithTimeout$`
	return err
}

// spawn runs the RPC in a goroutine of its own.
func (w *Writer) spawn(ctx context.Context, id string) {
	go func() {
		_, _ = w.c.GetItem(ctx, &catalogpb.GetItemRequest{Id: id})
	}()
}

// Notify's root goes to a helper that starts a goroutine with it: the caller's ctx would end
// the work when Notify returns.
func (w *Writer) Notify(_ context.Context, id string) error {
	w.spawn(context.Background(), id) // want `Writer\.spawn calls RPC CatalogClient\.GetItem with no deadline \(ctx from context\.Background\(\)\); add one with context\.WithTimeout$`
	return nil
}

// Sweep calls the RPC in a loop: a job needs a deadline per call.
func (w *Writer) Sweep(ctx context.Context, ids []string) {
	for _, id := range ids {
		_, _ = w.c.GetItem(context.Background(), &catalogpb.GetItemRequest{Id: id}) // want `add one with context\.WithTimeout$`
	}
}

// Twice uses one root for two RPCs.
func (w *Writer) Twice(ctx context.Context, id string) {
	bg := context.Background()
	_, _ = w.c.GetItem(bg, &catalogpb.GetItemRequest{Id: id}) // want `add one with context\.WithTimeout; it reaches 1 more call$`
	_, _ = w.c.GetItem(bg, &catalogpb.GetItemRequest{Id: id})
}

// Undo rolls back after a failed RPC with a fresh root: cleanup after a failure, which must run
// whether or not the caller's ctx is still live. The first call plainly drops the ctx.
func (w *Writer) Undo(_ context.Context, id string) error {
	if _, err := w.c.GetItem(context.Background(), &catalogpb.GetItemRequest{Id: id}); err != nil { // want `use the ctx Writer\.Undo is given$`
		_, _ = w.c.GetItem(context.Background(), &catalogpb.GetItemRequest{Id: "rollback"}) // want `add one with context\.WithTimeout$`
		return err
	}
	return nil
}

// Fire starts the RPC in a go statement: it outlives Fire.
func (w *Writer) Fire(ctx context.Context, id string) {
	go w.c.GetItem(context.Background(), &catalogpb.GetItemRequest{Id: id}) // want `add one with context\.WithTimeout$`
}
