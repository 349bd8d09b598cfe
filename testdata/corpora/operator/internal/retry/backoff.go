// Package retry holds the backoff policy shared by the controller and the API.
package retry

import (
	"context"
	"errors"
	"math/rand/v2"
	"time"
)

// ErrPermanent wraps an error that must not be retried.
var ErrPermanent = errors.New("permanent")

// Permanent marks err as not retryable.
func Permanent(err error) error {
	if err == nil {
		return nil
	}
	return errors.Join(ErrPermanent, err)
}

// Backoff is an exponential backoff with full jitter.
type Backoff struct {
	Initial time.Duration
	Max     time.Duration
	Steps   int
}

// Default is what the control plane uses unless configured otherwise.
var Default = Backoff{Initial: 100 * time.Millisecond, Max: 5 * time.Second, Steps: 6}

// Delay returns the sleep before attempt n (0-based).
func (b Backoff) Delay(n int) time.Duration {
	d := b.Initial << n
	if d > b.Max || d <= 0 {
		d = b.Max
	}
	return time.Duration(rand.Int64N(int64(d)) + 1)
}

// Retry calls fn until it succeeds, returns a permanent error, or Steps
// attempts have been made, sleeping between attempts.
func (b Backoff) Retry(fn func() error) error {
	var err error
	for n := 0; n < max(1, b.Steps); n++ {
		if err = fn(); err == nil || errors.Is(err, ErrPermanent) {
			return err
		}
		time.Sleep(b.Delay(n)) // OK: helper, not a request scope
	}
	return err
}

// RetryContext is Retry that stops waiting when ctx is done.
func (b Backoff) RetryContext(ctx context.Context, fn func(ctx context.Context) error) error {
	var err error
	for n := 0; n < max(1, b.Steps); n++ {
		if err = fn(ctx); err == nil || errors.Is(err, ErrPermanent) {
			return err
		}
		t := time.NewTimer(b.Delay(n))
		select {
		case <-ctx.Done():
			t.Stop()
			return errors.Join(err, ctx.Err())
		case <-t.C:
		}
	}
	return err
}

// Pause sleeps for the n-th backoff step. Used between best-effort steps that
// have nothing to retry.
func Pause(n int) {
	time.Sleep(Default.Delay(n)) // OK: helper, not a request scope
}
