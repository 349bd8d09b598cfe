// Package batch runs callbacks for its callers in other packages: its functions' summaries
// (which parameters they run, with which ctx) travel as facts.
package batch

import (
	"context"
	"net"
	"time"
)

// Each calls fn for every id with the caller's ctx.
func Each(ctx context.Context, ids []string, fn func(context.Context, string) error) error {
	for _, id := range ids {
		if err := fn(ctx, id); err != nil {
			return err
		}
	}
	return nil
}

// EachDetached calls fn for every id under a fresh budget of its own: the caller's work, given
// a root.
func EachDetached(ids []string, per time.Duration, fn func(context.Context, string) error) error { // want EachDetached:"drops ctx"
	for _, id := range ids {
		ctx, cancel := context.WithTimeout(context.Background(), per)
		err := fn(ctx, id)
		cancel()
		if err != nil {
			return err
		}
	}
	return nil
}

var hooks []func(context.Context, string) error

// Register keeps fn for later: it does not run it.
func Register(fn func(context.Context, string) error) { hooks = append(hooks, fn) }

// Detached wraps fn to run under a budget of its own, whatever ctx its caller gives.
func Detached(fn func(context.Context) error, d time.Duration) func(context.Context) error { // want Detached:"returns a function that result 0 drops ctx"
	return func(context.Context) error {
		ctx, cancel := context.WithTimeout(context.Background(), d)
		defer cancel()
		return fn(ctx)
	}
}

// Bounded wraps fn to run within its caller's ctx, for at most d.
func Bounded(fn func(context.Context) error, d time.Duration) func(context.Context) error {
	return func(ctx context.Context) error {
		ctx, cancel := context.WithTimeout(ctx, d)
		defer cancel()
		return fn(ctx)
	}
}

// Index lists ids.
type Index struct{ ids []string }

// All yields every id after touching it with a root of its own.
func (x *Index) All() func(yield func(string) bool) { // want All:"returns a function that result 0 drops ctx"
	return func(yield func(string) bool) {
		for _, id := range x.ids {
			touch(context.Background(), id)
			if !yield(id) {
				return
			}
		}
	}
}

// Scan yields every id after touching it with ctx.
func (x *Index) Scan(ctx context.Context) func(yield func(string) bool) {
	return func(yield func(string) bool) {
		for _, id := range x.ids {
			touch(ctx, id)
			if !yield(id) {
				return
			}
		}
	}
}

func touch(ctx context.Context, id string) {
	var d net.Dialer
	_, _ = d.DialContext(ctx, "tcp", id)
}

// Pool runs callbacks as its methods' parameters: the facts count the receiver among them.
type Pool struct{ Workers int }

// Each calls fn for every id with the caller's ctx.
func (p *Pool) Each(ctx context.Context, ids []string, fn func(context.Context, string) error) error {
	for _, id := range ids {
		if err := fn(ctx, id); err != nil {
			return err
		}
	}
	return nil
}
