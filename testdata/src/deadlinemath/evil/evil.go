// Package evil holds shapes that must not crash the rule or fool it.
package evil

import (
	"context"
	"time"
)

// A Deadline method of the wrong shape.
type clock struct{}

func (clock) Deadline() time.Time { return time.Time{} }

func wrongShape(c clock) time.Duration { return time.Until(c.Deadline()) }

// A Deadline with the contract, on a type of the package.
type job struct{ end time.Time }

func (j job) Deadline() (time.Time, bool) { return j.end, !j.end.IsZero() }

func jobBudget(j job) time.Duration {
	dl, _ := j.Deadline()
	return time.Until(dl) // want `the time from job\.Deadline\(\) is used without checking its ok`
}

// The tuple handed on whole.
func pair(ctx context.Context) (time.Time, bool) { return ctx.Deadline() }

// A deadline read in a loop, checked each turn.
func loop(ctx context.Context, ch <-chan int) time.Duration {
	var total time.Duration
	for range ch {
		if dl, ok := ctx.Deadline(); ok {
			total += time.Until(dl)
		}
	}
	return total
}

// ok kept for later: not followed.
type budget struct {
	at  time.Time
	has bool
}

func keep(ctx context.Context) budget {
	dl, ok := ctx.Deadline()
	return budget{at: dl, has: ok}
}

// Closures, goroutines and defers with the time.
func closures(ctx context.Context) {
	dl, _ := ctx.Deadline()
	go func() { _ = time.Until(dl) }()
	defer func() { _ = dl }()
}

// Negative constants (expired on purpose), and nanoseconds written on purpose: counts of a
// millisecond or more.
func extremes(ctx context.Context) {
	ctx, cancel := context.WithTimeout(ctx, -1)
	defer cancel()
	<-time.After(1 << 62)
	<-time.After(2e9)
	<-time.After(1e6)
	<-time.After(999999) // want `the duration of time\.After is 999999 nanoseconds`
	_ = ctx
}

const (
	a = iota
	b
)

func iotas() { <-time.After(b) }

// Generic helper with a Deadline-shaped constraint.
type deadliner interface {
	Deadline() (time.Time, bool)
}

func generic[T deadliner](v T) time.Duration {
	dl, _ := v.Deadline()
	return time.Until(dl) // want `the time from deadliner\.Deadline\(\) is used without checking its ok`
}
