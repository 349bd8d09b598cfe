// Package retry implements bounded retries that share the caller's deadline.
package retry

import (
	"context"
	"database/sql/driver"
	"errors"
	"time"

	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
)

// Policy says how often and how patiently to retry.
type Policy struct {
	Attempts  int
	Base      time.Duration
	Max       time.Duration
	Retryable func(error) bool
}

// Default retries transient transport and database errors three times.
var Default = Policy{Attempts: 3, Base: 25 * time.Millisecond, Max: 400 * time.Millisecond, Retryable: Transient}

// Transient reports whether err is worth another attempt.
func Transient(err error) bool {
	if errors.Is(err, driver.ErrBadConn) {
		return true
	}
	switch status.Code(err) {
	case codes.Unavailable, codes.ResourceExhausted, codes.Aborted:
		return true
	}
	return false
}

func (p Policy) backoff(attempt int) time.Duration {
	d := p.Base << attempt
	if d <= 0 || d > p.Max {
		return p.Max
	}
	return d
}

// Do calls fn until it succeeds, fails with a non-retryable error, runs out of
// attempts, or ctx is done. Every attempt runs under ctx, so the attempts share
// one deadline instead of each getting a fresh one.
func Do(ctx context.Context, p Policy, fn func(ctx context.Context) error) error {
	if ctx == nil {
		ctx = context.Background() // OK
	}
	retryable := p.Retryable
	if retryable == nil {
		retryable = Transient
	}
	var err error
	for attempt := 0; attempt < max(p.Attempts, 1); attempt++ {
		if err = fn(ctx); err == nil || !retryable(err) {
			return err
		}
		t := time.NewTimer(p.backoff(attempt))
		select {
		case <-ctx.Done():
			t.Stop()
			return errors.Join(err, ctx.Err())
		case <-t.C:
		}
	}
	return err
}
