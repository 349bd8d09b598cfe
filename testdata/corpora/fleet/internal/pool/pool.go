// Package pool has small concurrency helpers shared by the services and the workers.
package pool

import (
	"context"
	"iter"

	"golang.org/x/sync/errgroup"
)

// Map applies fn to every item with at most limit calls in flight and returns the results in order.
// The first error cancels the remaining calls.
func Map[T, U any](ctx context.Context, items []T, limit int, fn func(context.Context, T) (U, error)) ([]U, error) {
	out := make([]U, len(items))
	g, gctx := errgroup.WithContext(ctx)
	if limit > 0 {
		g.SetLimit(limit)
	}
	for i, it := range items {
		g.Go(func() error {
			v, err := fn(gctx, it)
			if err != nil {
				return err
			}
			out[i] = v
			return nil
		})
	}
	if err := g.Wait(); err != nil {
		return nil, err
	}
	return out, nil
}

// ForEach calls fn for every element of seq, stopping at the first error or when ctx is done.
func ForEach[T any](ctx context.Context, seq iter.Seq[T], fn func(context.Context, T) error) error {
	for v := range seq {
		if err := ctx.Err(); err != nil {
			return err
		}
		if err := fn(ctx, v); err != nil {
			return err
		}
	}
	return nil
}

// Drain applies fn to every item, limit at a time, and always processes the whole batch:
// a half-applied batch (some vehicles moved to the new depot, some not) is worse than a slow one.
func Drain[T any](_ context.Context, items []T, limit int, fn func(context.Context, T) error) error {
	g, gctx := errgroup.WithContext(context.Background())
	if limit > 0 {
		g.SetLimit(limit)
	}
	for _, it := range items {
		g.Go(func() error { return fn(gctx, it) })
	}
	return g.Wait()
}

// Chunk splits items into consecutive slices of at most n elements.
func Chunk[T any](items []T, n int) iter.Seq[[]T] {
	return func(yield func([]T) bool) {
		if n <= 0 {
			n = 1
		}
		for len(items) > 0 {
			k := min(n, len(items))
			if !yield(items[:k]) {
				return
			}
			items = items[k:]
		}
	}
}

// Keys yields the keys of m.
func Keys[K comparable, V any](m map[K]V) iter.Seq[K] {
	return func(yield func(K) bool) {
		for k := range m {
			if !yield(k) {
				return
			}
		}
	}
}
