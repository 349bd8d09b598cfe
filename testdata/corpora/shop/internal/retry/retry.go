// Package retry implements capped exponential backoff that respects ctx.
package retry

import (
	"context"
	"fmt"
	"math/rand/v2"
	"time"
)

type Policy struct {
	Attempts int
	Base     time.Duration
	Max      time.Duration
}

var Default = Policy{Attempts: 3, Base: 50 * time.Millisecond, Max: time.Second}

// Do calls fn until it succeeds, returns a non-retryable error, runs out of
// attempts, or ctx is done.
func Do[T any](ctx context.Context, p Policy, retryable func(error) bool, fn func(context.Context) (T, error)) (T, error) {
	var zero T
	delay := p.Base
	var lastErr error
	for attempt := 1; ; attempt++ {
		v, err := fn(ctx)
		if err == nil {
			return v, nil
		}
		lastErr = err
		if attempt >= p.Attempts || !retryable(err) {
			return zero, lastErr
		}
		sleep := delay/2 + rand.N(delay/2+1)
		t := time.NewTimer(sleep)
		select {
		case <-ctx.Done():
			t.Stop()
			return zero, fmt.Errorf("%w (last attempt: %v)", ctx.Err(), lastErr)
		case <-t.C:
		}
		delay = min(delay*2, p.Max)
	}
}
