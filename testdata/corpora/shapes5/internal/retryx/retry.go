// Package retryx retries calls with a capped exponential backoff.
package retryx

import (
	"context"
	"time"
)

// Do calls fn up to attempts times with ctx, until it succeeds or ctx is done.
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

func backoff(i int) time.Duration {
	d := 50 * time.Millisecond << i
	return min(d, 2*time.Second)
}
