// Package closurecall is a CLI whose commands make their RPCs in function literals they call.
// A literal that is only ever called, where it is written, runs at those calls: a ctx it
// captures holds there what was stored before them, not what the command stores after its last
// call (reset to context.Background() for later steps). A literal that is deferred, started
// with go, stored or handed on may run after such a store, which then counts too.
package closurecall

import (
	"context"
	"time"

	"example.com/gen/catalogpb"
)

// Bounded bounds its ctx, fetches through a literal it calls, then resets the ctx once the
// literal has run: the RPC had its deadline.
func Bounded(c catalogpb.CatalogClient, id string) error {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	get := func() error {
		_, err := c.GetItem(ctx, &catalogpb.GetItemRequest{Id: id})
		return err
	}
	if err := get(); err != nil {
		return err
	}
	ctx = context.Background()
	_ = ctx
	return nil
}

// Retried calls its literal on every turn of a loop, and the ctx it resets at the end of a turn
// reaches the next call: reported.
func Retried(c catalogpb.CatalogClient, id string) error {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	get := func() error {
		_, err := c.GetItem(ctx, &catalogpb.GetItemRequest{Id: id}) // want `RPC CatalogClient\.GetItem has no deadline \(ctx from context\.Background\(\)`
		return err
	}
	for i := 0; i < 3; i++ {
		if get() == nil {
			return nil
		}
		ctx = context.Background()
	}
	return nil
}

// Nested starts the RPC in a goroutine of the literal it calls, as a command waits for a
// reply or its own timeout: the goroutine reads the ctx the literal was called with.
func Nested(c catalogpb.CatalogClient, id string) error {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	get := func() error {
		ch := make(chan error, 1)
		go func() {
			_, err := c.GetItem(ctx, &catalogpb.GetItemRequest{Id: id})
			ch <- err
		}()
		select {
		case err := <-ch:
			return err
		case <-ctx.Done():
			return ctx.Err()
		}
	}
	err := get()
	ctx = context.Background()
	_ = ctx
	return err
}

// Deferred runs its literal at return, after the reset: reported.
func Deferred(c catalogpb.CatalogClient, id string) {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	defer func() {
		_, _ = c.GetItem(ctx, &catalogpb.GetItemRequest{Id: id}) // want `RPC CatalogClient\.GetItem has no deadline \(ctx from context\.Background\(\)`
	}()
	ctx = context.Background()
}

// Handed hands its literal to a helper, which may run it at any time: the reset counts.
func Handed(c catalogpb.CatalogClient, id string) {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	get := func() {
		_, _ = c.GetItem(ctx, &catalogpb.GetItemRequest{Id: id}) // want `RPC CatalogClient\.GetItem has no deadline \(ctx from context\.Background\(\)`
	}
	later(get)
	ctx = context.Background()
	get()
}

func later(f func()) { f() }

// Unbounded calls its literal with a root it never bounds: reported.
func Unbounded(c catalogpb.CatalogClient, id string) error {
	ctx := context.Background()
	get := func() error {
		_, err := c.GetItem(ctx, &catalogpb.GetItemRequest{Id: id}) // want `RPC CatalogClient\.GetItem has no deadline \(ctx from context\.Background\(\)\)`
		return err
	}
	return get()
}
