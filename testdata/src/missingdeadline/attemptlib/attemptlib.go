// Package attemptlib is a library of callback runners for package attemptapp: Run bounds the
// callback's ctx by the wait it is given when positive; WithDefault puts in a default for a
// zero wait, so a zero is no "none".
package attemptlib

import (
	"context"
	"time"
)

// Runner runs callbacks.
type Runner struct{}

// Run runs fn under wait when wait is positive.
func (r *Runner) Run(ctx context.Context, wait time.Duration, fn func(ctx context.Context) error) error {
	if wait > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, wait)
		defer cancel()
	}
	return fn(ctx)
}

const defaultWait = time.Minute

// WithDefault runs fn under wait, or under a minute when wait is zero.
func WithDefault(ctx context.Context, wait time.Duration, fn func(ctx context.Context) error) error {
	d := wait
	if wait == 0 {
		d = defaultWait
	}
	if d > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, d)
		defer cancel()
	}
	return fn(ctx)
}

// Paced sleeps for backoff, then runs fn under wait unless streaming: the duration compared is
// not the one that bounds.
func Paced(ctx context.Context, backoff, wait time.Duration, streaming bool, fn func(ctx context.Context) error) error {
	if backoff > 0 {
		time.Sleep(backoff)
	}
	if !streaming {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, wait)
		defer cancel()
	}
	return fn(ctx)
}
