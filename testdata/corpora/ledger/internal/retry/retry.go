// Package retry implements capped exponential backoff that honours ctx.
package retry

import (
	"context"
	"errors"
	"math/rand/v2"
	"time"
)

// Policy configures Do.
type Policy struct {
	Attempts int
	Base     time.Duration
	Max      time.Duration
}

// Default is a reasonable policy for idempotent downstream calls.
var Default = Policy{Attempts: 4, Base: 50 * time.Millisecond, Max: 2 * time.Second}

// Permanent wraps an error that must not be retried.
type Permanent struct{ Err error }

func (p Permanent) Error() string { return p.Err.Error() }
func (p Permanent) Unwrap() error { return p.Err }

// Backoff returns the jittered delay before attempt n (0-based).
func (p Policy) Backoff(n int) time.Duration {
	d := p.Base << n
	if d <= 0 || d > p.Max {
		d = p.Max
	}
	return d/2 + rand.N(d/2+1)
}

// Do calls fn until it succeeds, returns a Permanent error, the attempts are
// exhausted or ctx is done. The wait between attempts is interrupted by ctx.
func Do(ctx context.Context, p Policy, fn func(context.Context) error) error {
	var err error
	for n := 0; n < p.Attempts; n++ {
		if err = fn(ctx); err == nil {
			return nil
		}
		var perm Permanent
		if errors.As(err, &perm) {
			return perm.Err
		}
		if n == p.Attempts-1 {
			break
		}
		t := time.NewTimer(p.Backoff(n))
		select {
		case <-ctx.Done():
			t.Stop()
			return errors.Join(err, context.Cause(ctx))
		case <-t.C:
		}
	}
	return err
}
