// Package ctxutil makes the ctxs of a client's calls: with the timeout its caller gives, when
// there is one.
package ctxutil

import (
	"context"
	"time"

	"google.golang.org/grpc/metadata"
)

// Options are a call's settings.
type Options struct {
	Timeout time.Duration
}

// HeaderContext carries headers, and gives up after timeout when one is set: the deadline is
// its caller's to choose.
func HeaderContext(timeout time.Duration, headers map[string]string) (context.Context, context.CancelFunc) {
	var ctx context.Context
	var cancel context.CancelFunc
	if timeout > 0 {
		ctx, cancel = context.WithTimeout(context.Background(), timeout)
	} else {
		ctx, cancel = context.Background(), func() {}
	}
	return metadata.NewOutgoingContext(ctx, metadata.New(headers)), cancel
}

// OptionsContext reads the timeout from its caller's options.
func OptionsContext(opts *Options) (context.Context, context.CancelFunc) {
	if opts.Timeout <= 0 {
		return context.Background(), func() {}
	}
	return context.WithTimeout(context.Background(), opts.Timeout)
}

// QuickContext bounds the call unless told to be quick: the condition is no duration's, and
// the quick path has no deadline.
func QuickContext(quick bool) (context.Context, context.CancelFunc) {
	if quick {
		return context.Background(), func() {}
	}
	return context.WithTimeout(context.Background(), time.Second)
}

// pollEvery is a package setting, not its caller's.
var pollEvery = 5 * time.Second

// PollContext compares a duration no caller gives: its deadline-less path is its own.
func PollContext() (context.Context, context.CancelFunc) {
	if pollEvery > time.Minute {
		return context.WithTimeout(context.Background(), pollEvery)
	}
	return context.Background(), func() {}
}

// EveryContext compares its caller's interval, but its deadline is a constant of its own: the
// deadline-less path is its own decision, not its caller's.
func EveryContext(every time.Duration) (context.Context, context.CancelFunc) {
	if every > time.Minute {
		return context.WithTimeout(context.Background(), time.Hour)
	}
	return context.Background(), func() {}
}
