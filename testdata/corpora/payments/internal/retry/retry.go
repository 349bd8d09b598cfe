// Package retry retries idempotent operations with capped exponential backoff.
package retry

import (
	"context"
	"errors"
	"math/rand/v2"
	"time"

	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
)

// Policy configures retries.
type Policy struct {
	Attempts  int
	Initial   time.Duration
	Max       time.Duration
	Retryable func(error) bool
}

// Default retries transient failures three times, starting at 50ms.
var Default = Policy{Attempts: 3, Initial: 50 * time.Millisecond, Max: time.Second}

func (p Policy) attempts() int {
	if p.Attempts <= 0 {
		return 1
	}
	return p.Attempts
}

func (p Policy) retryable(err error) bool {
	if p.Retryable != nil {
		return p.Retryable(err)
	}
	switch status.Code(err) {
	case codes.Unavailable, codes.ResourceExhausted, codes.Aborted:
		return true
	}
	return false
}

func (p Policy) next(d time.Duration) time.Duration {
	d *= 2
	if p.Max > 0 && d > p.Max {
		d = p.Max
	}
	return d
}

func jitter(d time.Duration) time.Duration {
	if d <= 0 {
		return 0
	}
	return d/2 + rand.N(d/2+1)
}

// Do calls fn until it succeeds, the policy gives up, or ctx is done. All
// attempts share ctx, and with it the caller's deadline.
func Do[T any](ctx context.Context, p Policy, fn func(context.Context) (T, error)) (T, error) {
	var zero T
	delay := p.Initial
	for attempt := 1; ; attempt++ {
		v, err := fn(ctx)
		if err == nil {
			return v, nil
		}
		if attempt >= p.attempts() || !p.retryable(err) {
			return zero, err
		}
		t := time.NewTimer(jitter(delay))
		select {
		case <-ctx.Done():
			t.Stop()
			return zero, errors.Join(err, ctx.Err())
		case <-t.C:
		}
		delay = p.next(delay)
	}
}

// Attempts calls fn until it succeeds or the policy gives up, giving every
// attempt its own budget of perAttempt so that one slow attempt cannot use
// up the time of the others.
func Attempts[T any](p Policy, perAttempt time.Duration, fn func(context.Context) (T, error)) (T, error) {
	var zero T
	var err error
	delay := p.Initial
	for attempt := 1; attempt <= p.attempts(); attempt++ {
		ctx, cancel := context.WithTimeout(context.Background(), perAttempt) // OK
		var v T
		v, err = fn(ctx)
		cancel()
		if err == nil {
			return v, nil
		}
		if !p.retryable(err) {
			break
		}
		time.Sleep(jitter(delay)) // OK
		delay = p.next(delay)
	}
	return zero, err
}
