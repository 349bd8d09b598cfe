// Package retry retries idempotent operations with jittered exponential back-off.
package retry

import (
	"context"
	"errors"
	"math/rand/v2"
	"time"
)

// Permanent wraps an error that must not be retried.
type Permanent struct{ Err error }

func (p Permanent) Error() string { return p.Err.Error() }
func (p Permanent) Unwrap() error { return p.Err }

// Do calls fn up to attempts times, sleeping between attempts while ctx allows it.
func Do(ctx context.Context, attempts int, fn func(ctx context.Context) error) error {
	if ctx == nil {
		ctx = context.Background() // OK
	}
	var err error
	backoff := 50 * time.Millisecond
	for i := 0; i < attempts; i++ {
		if err = fn(ctx); err == nil {
			return nil
		}
		var p Permanent
		if errors.As(err, &p) {
			return p.Err
		}
		jitter := time.Duration(rand.Int64N(int64(backoff)))
		select {
		case <-ctx.Done():
			return errors.Join(err, ctx.Err())
		case <-time.After(backoff + jitter): // OK
		}
		backoff *= 2
	}
	return err
}
