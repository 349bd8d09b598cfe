// Package retry retries calls that fail transiently.
package retry

import (
	"context"
	"time"
)

const baseDelay = 50 * time.Millisecond

// Do calls fn with ctx until it succeeds, attempts run out or ctx is done, backing off
// between tries.
func Do[T any](ctx context.Context, attempts int, fn func(context.Context) (T, error)) (T, error) {
	var zero T
	var err error
	delay := baseDelay
	for i := 0; i < attempts; i++ {
		var v T
		if v, err = fn(ctx); err == nil {
			return v, nil
		}
		select {
		case <-ctx.Done():
			return zero, ctx.Err()
		case <-time.After(delay):
		}
		delay *= 2
	}
	return zero, err
}
