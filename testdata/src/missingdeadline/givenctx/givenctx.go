// Package givenctx is an index writer whose methods are given a ctx and call RPCs with a root
// of their own: the fix is the ctx they are given, which their callers can bound, not a new
// budget. A function given no ctx, or a literal, is told to add a deadline.
package givenctx

import (
	"context"
	"errors"

	"example.com/gen/catalogpb"
)

type Writer struct {
	c catalogpb.CatalogClient
}

// Flush names its ctx and does not use it.
func (w *Writer) Flush(ctx context.Context, id string) error {
	_, err := w.c.GetItem(context.Background(), &catalogpb.GetItemRequest{Id: id}) // want `RPC CatalogClient\.GetItem has no deadline \(ctx from context\.Background\(\)\); use the ctx Writer\.Flush is given$`
	return err
}

// Batch discards its ctx (_) and calls two RPCs with two roots: two decisions, each told to
// use the ctx it is given.
func (w *Writer) Batch(_ context.Context, ids []string) error {
	if _, err := w.c.GetItem(context.Background(), &catalogpb.GetItemRequest{Id: ids[0]}); err != nil { // want `use the ctx Writer\.Batch is given$`
		return err
	}
	_, err := w.c.GetItem(context.TODO(), &catalogpb.GetItemRequest{Id: ids[1]}) // want `\(ctx from context\.TODO\(\)\); use the ctx Writer\.Batch is given$`
	return err
}

// lookup passes its ctx on.
func (w *Writer) lookup(ctx context.Context, id string) error {
	_, err := w.c.GetItem(ctx, &catalogpb.GetItemRequest{Id: id})
	return err
}

// Sync's root reaches an RPC through a helper, which might start a goroutine with it or keep
// it: told to add a deadline.
func Sync(name string, ctx context.Context, w *Writer) error {
	return w.lookup(context.Background(), name) // want `Writer\.lookup calls RPC CatalogClient\.GetItem with no deadline \(ctx from context\.Background\(\)\); add one with context\.WithTimeout$`
}

// rebuild is given no ctx: the ctx it makes needs a deadline.
func rebuild(w *Writer, id string) error {
	_, err := w.c.GetItem(context.Background(), &catalogpb.GetItemRequest{Id: id}) // want `RPC CatalogClient\.GetItem has no deadline \(ctx from context\.Background\(\)\); add one with context\.WithTimeout$`
	return err
}

// Spawn is given a ctx, but its root is made in a goroutine of its own, which may outlive it:
// not told to use Spawn's ctx.
func (w *Writer) Spawn(ctx context.Context, id string) {
	go func() {
		_, _ = w.c.GetItem(context.Background(), &catalogpb.GetItemRequest{Id: id}) // want `RPC CatalogClient\.GetItem has no deadline \(ctx from context\.Background\(\)\); add one with context\.WithTimeout$`
	}()
}

// Each takes its ctx in a callback's signature only: a parameter of the literal, not of Each.
func (w *Writer) Each(ids []string, f func(context.Context, string) error) {
	for _, id := range ids {
		_ = f(context.Background(), id)
	}
	_, _ = w.c.GetItem(context.Background(), &catalogpb.GetItemRequest{Id: "each"}) // want `add one with context\.WithTimeout$`
}

// many is given their ctxs as a slice: no ctx parameter.
func (w *Writer) many(ctxs []context.Context, id string) error {
	_, err := w.c.GetItem(context.Background(), &catalogpb.GetItemRequest{Id: id}) // want `add one with context\.WithTimeout$`
	return err
}

// Route makes one root that reaches calls on separate paths: one finding where it is made,
// told to add a deadline there.
func (w *Writer) Route(ctx context.Context, verb, id string) {
	root := context.Background() // want `the ctx from context\.Background\(\) reaches 2 calls on separate paths, none with a deadline; add one here with context\.WithTimeout$`
	switch verb {
	case "get":
		_, _ = w.c.GetItem(root, &catalogpb.GetItemRequest{Id: id})
	case "lookup":
		_ = w.lookup(root, id)
	}
}

// Shadow's ctx is hidden by a local of the same name where the root is made: told to use it,
// but no mechanical fix.
func (w *Writer) Shadow(ctx context.Context, id string) error {
	if id != "" {
		ctx := "not a ctx"
		_ = ctx
		_, err := w.c.GetItem(context.Background(), &catalogpb.GetItemRequest{Id: id}) // want `use the ctx Writer\.Shadow is given$`
		return err
	}
	return nil
}

// Bounded is given a ctx and gives its own root a deadline: not reported.
func (w *Writer) Bounded(ctx context.Context, id string) error {
	bctx, cancel := context.WithTimeout(context.Background(), 1e9)
	defer cancel()
	_, err := w.c.GetItem(bctx, &catalogpb.GetItemRequest{Id: id})
	return err
}

// Release is given a ctx, but its roots are made where that ctx may be done: once it is, in
// cleanup after a failure, and in a deferred call. A fresh root is the idiom there; it only
// lacks a deadline.
func (w *Writer) Release(ctx context.Context, id string, done <-chan struct{}) error {
	defer w.c.GetItem(context.Background(), &catalogpb.GetItemRequest{Id: "unlock"}) // want `add one with context\.WithTimeout$`
	select {
	case <-ctx.Done():
		_, _ = w.c.GetItem(context.Background(), &catalogpb.GetItemRequest{Id: "abandon"}) // want `add one with context\.WithTimeout$`
		return ctx.Err()
	case <-done:
	}
	if err := validate(id); err != nil {
		_, _ = w.c.GetItem(context.Background(), &catalogpb.GetItemRequest{Id: "rollback"}) // want `add one with context\.WithTimeout$`
		return err
	}
	return nil
}

// validate checks an id.
func validate(id string) error {
	if id == "" {
		return errors.New("no id")
	}
	return nil
}
