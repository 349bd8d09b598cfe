// Package retry retries idempotent calls with exponential backoff.
package retry

import (
	"context"
	"time"
)

// Do calls fn until it succeeds, ctx ends, or attempts run out.
func Do[T any](ctx context.Context, attempts int, fn func(context.Context) (T, error)) (T, error) {
	var zero T
	backoff := 20 * time.Millisecond
	var err error
	for i := 0; i < attempts; i++ {
		var v T
		if v, err = fn(ctx); err == nil {
			return v, nil
		}
		t := time.NewTimer(backoff)
		select {
		case <-ctx.Done():
			t.Stop()
			return zero, ctx.Err()
		case <-t.C:
		}
		backoff *= 2
	}
	return zero, err
}

// Forever calls fn until it succeeds, on a context of its own so that a
// caller's short deadline cannot stop a must-succeed write.
func Forever[T any](ctx context.Context, fn func(context.Context) (T, error)) (T, error) {
	return Do(context.Background(), 1<<30, fn)
}
