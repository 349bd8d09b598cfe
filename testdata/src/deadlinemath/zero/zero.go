// Package zero computes budgets from a ctx's deadline — with and without checking that there
// is one.
package zero

import (
	"context"
	"net"
	"testing"
	"time"
)

// halfBudget ignores ok: with no deadline, the budget is about -146 years.
func halfBudget(ctx context.Context) time.Duration {
	dl, _ := ctx.Deadline()
	return time.Until(dl) / 2 // want `the time from ctx\.Deadline\(\) is used without checking its ok: with no deadline it is the zero time, so time\.Until gives about -292 years; check ok first`
}

// checked reads the deadline only when there is one.
func checked(ctx context.Context) time.Duration {
	if dl, ok := ctx.Deadline(); ok {
		return time.Until(dl) / 2
	}
	return time.Second
}

// early returns when there is none.
func early(ctx context.Context) time.Duration {
	dl, ok := ctx.Deadline()
	if !ok {
		return time.Second
	}
	return time.Until(dl)
}

// conjunction checks ok in the same condition.
func conjunction(ctx context.Context, max time.Duration) time.Duration {
	if dl, ok := ctx.Deadline(); ok && time.Until(dl) < max {
		return time.Until(dl)
	}
	return max
}

// defaulted computes first and replaces the result when there is no deadline: harmless.
func defaulted(ctx context.Context) time.Duration {
	dl, ok := ctx.Deadline()
	budget := time.Until(dl)
	if !ok {
		budget = time.Minute
	}
	return budget
}

// usedBeforeCheck uses the duration before it looks at ok.
func usedBeforeCheck(ctx context.Context, ch chan<- time.Duration) {
	dl, ok := ctx.Deadline()
	ch <- dl.Sub(time.Now()) // want `so Time\.Sub gives about -292 years`
	if !ok {
		return
	}
}

// propagate copies a deadline onto a downstream ctx without checking it.
func propagate(ctx, down context.Context) (context.Context, context.CancelFunc) {
	dl, _ := ctx.Deadline()
	return context.WithDeadline(down, dl) // want `so the ctx context\.WithDeadline makes has expired before it starts`
}

// propagateChecked does the same with a check.
func propagateChecked(ctx, down context.Context) (context.Context, context.CancelFunc) {
	if dl, ok := ctx.Deadline(); ok {
		return context.WithDeadline(down, dl)
	}
	return context.WithCancel(down)
}

// connDeadline sets a connection's deadline from the ctx's.
func connDeadline(ctx context.Context, c net.Conn) error {
	dl, _ := ctx.Deadline()
	return c.SetDeadline(dl) // want `which Conn\.SetDeadline takes as no deadline at all`
}

// expired compares without a check: with no deadline it is always past.
func expired(ctx context.Context) bool {
	dl, _ := ctx.Deadline()
	return time.Now().After(dl) // want `before every other time, so Time\.After is decided in advance`
}

// zeroChecked looks at the time itself instead of ok.
func zeroChecked(ctx context.Context) time.Duration {
	dl, _ := ctx.Deadline()
	if dl.IsZero() {
		return time.Second
	}
	return time.Until(dl)
}

// handedOn gives the time to another function: not followed.
func handedOn(ctx context.Context, f func(time.Time) time.Duration) time.Duration {
	dl, _ := ctx.Deadline()
	return f(dl)
}

// unused computes and throws away.
func unused(ctx context.Context) {
	dl, _ := ctx.Deadline()
	_ = time.Until(dl)
}

// testBudget reads a test's deadline, which `go test` without -timeout 0 ... may not have.
func testBudget(t *testing.T) time.Duration {
	dl, _ := t.Deadline()
	return time.Until(dl) // want `the time from T\.Deadline\(\) is used without checking its ok`
}

// phiDefault replaces the deadline by a default when there is none, then uses it.
func phiDefault(ctx context.Context) time.Duration {
	dl, ok := ctx.Deadline()
	if !ok {
		dl = time.Now().Add(time.Minute)
	}
	return time.Until(dl)
}

// shareReplaced computes its share from the deadline before looking at ok, then puts a
// default in its place when there is none: the bogus share is never used. Silent.
func shareReplaced(ctx context.Context, parts int) time.Duration {
	dl, ok := ctx.Deadline()
	share := -time.Duration(int64(time.Until(dl)) / int64(parts))
	if !ok {
		share = time.Second
	}
	return share
}

// shareCompared computes the same share but decides on it before looking at ok.
func shareCompared(ctx context.Context, parts int) time.Duration {
	dl, ok := ctx.Deadline()
	share := time.Until(dl) / time.Duration(parts) // want `the time from ctx\.Deadline\(\) is used without checking its ok`
	if share < time.Millisecond {
		share = time.Millisecond
	}
	if !ok {
		return time.Second
	}
	return share
}
