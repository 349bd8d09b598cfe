// Package guard wraps units of work into functions that bound them.
package guard

import (
	"context"
	"time"
)

// Bounded returns fn wrapped so that it never runs for longer than budget within the
// caller's ctx.
func Bounded(fn func(context.Context) error, budget time.Duration) func(context.Context) error {
	return func(ctx context.Context) error {
		ctx, cancel := context.WithTimeout(ctx, budget)
		defer cancel()
		return fn(ctx)
	}
}

// Detached returns fn wrapped so that it runs under a budget of its own, whatever the caller's
// ctx.
func Detached(fn func(context.Context) error, budget time.Duration) func(context.Context) error {
	return func(context.Context) error {
		ctx, cancel := context.WithTimeout(context.Background(), budget)
		defer cancel()
		return fn(ctx)
	}
}
