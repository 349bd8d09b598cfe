// Package retry holds the runner's generic retry and fan-out helpers.
package retry

import (
	"context"
	"time"
)

func backoff(attempt int) time.Duration {
	return time.Duration(1<<attempt) * 50 * time.Millisecond
}

// Do calls fn up to attempts times with the caller's ctx, backing off between attempts.
func Do[T any](ctx context.Context, attempts int, fn func(context.Context) (T, error)) (T, error) {
	var zero T
	var err error
	for i := 0; i < attempts; i++ {
		var v T
		if v, err = fn(ctx); err == nil {
			return v, nil
		}
		select {
		case <-ctx.Done():
			return zero, ctx.Err()
		case <-time.After(backoff(i)):
		}
	}
	return zero, err
}

// DoTimeout is Do with a deadline of per on each attempt.
func DoTimeout[T any](ctx context.Context, attempts int, per time.Duration, fn func(context.Context) (T, error)) (T, error) {
	return Do(ctx, attempts, func(ctx context.Context) (T, error) {
		actx, cancel := context.WithTimeout(ctx, per)
		defer cancel()
		return fn(actx)
	})
}

// Detached is Do under a budget of its own, whoever calls it.
func Detached[T any](attempts int, budget time.Duration, fn func(context.Context) (T, error)) (T, error) {
	ctx, cancel := context.WithTimeout(context.Background(), budget)
	defer cancel()
	return Do(ctx, attempts, fn)
}

// Map calls fn for every element of in, in order, with the caller's ctx.
func Map[T, U any](ctx context.Context, in []T, fn func(context.Context, T) (U, error)) ([]U, error) {
	out := make([]U, 0, len(in))
	for _, v := range in {
		u, err := fn(ctx, v)
		if err != nil {
			return out, err
		}
		out = append(out, u)
	}
	return out, nil
}

// Syncer is anything that can refresh itself.
type Syncer interface {
	Sync(ctx context.Context) error
}

// SyncAll syncs every element with the caller's ctx.
func SyncAll[S Syncer](ctx context.Context, all []S) error {
	for _, s := range all {
		if err := s.Sync(ctx); err != nil {
			return err
		}
	}
	return nil
}

// ResyncAll syncs every element from scratch, however long it takes.
func ResyncAll[S Syncer](all []S) error {
	ctx := context.Background()
	for _, s := range all {
		if err := s.Sync(ctx); err != nil {
			return err
		}
	}
	return nil
}
