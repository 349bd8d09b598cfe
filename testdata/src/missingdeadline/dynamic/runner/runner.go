// Package runner runs callbacks for other packages: which parameter it runs, and with which
// of its ctx parameters, travels as a fact.
package runner

import (
	"context"
	"time"

	"example.com/gen/catalogpb"
)

// Each runs fn for every id with the ctx it is given.
func Each(ctx context.Context, ids []string, fn func(context.Context, string) error) error {
	for _, id := range ids {
		if err := fn(ctx, id); err != nil {
			return err
		}
	}
	return nil
}

// Do retries fn with the ctx it is given.
func Do[T any](ctx context.Context, attempts int, fn func(context.Context) (T, error)) (T, error) {
	var zero T
	for i := 0; i < attempts; i++ {
		if v, err := fn(ctx); err == nil {
			return v, nil
		}
	}
	return zero, nil
}

// Within runs fn with a deadline of its own on the ctx it is given.
func Within(ctx context.Context, d time.Duration, fn func(context.Context) error) error {
	ctx, cancel := context.WithTimeout(ctx, d)
	defer cancel()
	return fn(ctx)
}

// Later keeps fn for later.
func Later(ctx context.Context, fn func(context.Context) error) { pending = append(pending, fn) }

var pending []func(context.Context) error

// Apply runs fn with the ctx it is given.
func Apply(ctx context.Context, fn func(context.Context) error) error { return fn(ctx) }

// warm hands Apply a callback that makes an RPC: that says nothing of what other callers hand it.
func warm(ctx context.Context, c catalogpb.CatalogClient) error {
	return Apply(ctx, func(ctx context.Context) error {
		_, err := c.GetItem(ctx, &catalogpb.GetItemRequest{Id: "warm"})
		return err
	})
}

var _ = warm

// Forward hands fn on to Each, with the ctx it is given: Each's fact says which.
func Forward(ctx context.Context, ids []string, fn func(context.Context, string) error) error {
	return Each(ctx, ids, fn)
}

// Shielded hands fn on to Within, which runs it with a deadline of its own.
func Shielded(ctx context.Context, fn func(context.Context) error) error {
	return Within(ctx, time.Second, fn)
}

// Fetcher fetches items with the ctx it is given.
type Fetcher struct{ C catalogpb.CatalogClient }

// Fetch asks for one item.
func (f Fetcher) Fetch(ctx context.Context, id string) error {
	_, err := f.C.GetItem(ctx, &catalogpb.GetItemRequest{Id: id})
	return err
}
