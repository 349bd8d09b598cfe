// Package decorated wraps a store in decorators that pass every call on to the next store, held
// in a field: the store at the end of the chain, wired out of sight, is what does the work. A
// cycle of decorators in sight proves nothing about it, so a root handed to them is work.
package decorated

import (
	"context"
	"time"
)

// Store reads traces.
type Store interface {
	Get(ctx context.Context, id string) ([]byte, error)
}

// Metered times each call of the next store.
type Metered struct{ next Store }

func (m Metered) Get(ctx context.Context, id string) ([]byte, error) {
	start := time.Now()
	defer func() { _ = time.Since(start) }()
	return m.next.Get(ctx, id)
}

// Logged passes the call on as well.
type Logged struct{ next Store }

func (l Logged) Get(ctx context.Context, id string) ([]byte, error) { return l.next.Get(ctx, id) }

// Wrap decorates a store wired in by the program.
func Wrap(s Store) Store { return Metered{next: Logged{next: s}} }

var store Store

// Use sets the store.
func Use(s Store) { store = Wrap(s) }

// Prefetch reads a trace with a root of its own through the chain: work.
func Prefetch(id string) { // want Prefetch:"drops ctx"
	_, _ = store.Get(context.Background(), id)
}
