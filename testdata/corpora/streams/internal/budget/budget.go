// Package budget splits the time a caller gave us between the steps of a request: how much a
// downstream call may take, whether to start a step at all, what to tell the next hop.
package budget

import (
	"context"
	"errors"
	"expvar"
	"fmt"
	"strconv"
	"sync"
	"time"
)

// DefaultShare is what one step gets when the caller set no deadline.
const DefaultShare = 5 * time.Second

// ErrInsufficient is returned by Reserve when too little time is left to start a step.
var ErrInsufficient = errors.New("budget: not enough time left for this step")

var noDeadline = expvar.NewInt("budget_requests_without_deadline")

// Remaining returns the time left before ctx's deadline.
func Remaining(ctx context.Context) time.Duration {
	dl, _ := ctx.Deadline()
	return time.Until(dl) // BUG: deadlinemath
}

// Share divides what is left between parts steps, or returns DefaultShare when the caller set
// no deadline.
func Share(ctx context.Context, parts int) time.Duration {
	dl, ok := ctx.Deadline()
	share := time.Until(dl) / time.Duration(max(parts, 1)) // OK: replaced by DefaultShare below when there is no deadline
	if !ok {
		share = DefaultShare
	}
	return share
}

// Reserve fails fast when less than need is left, so we do not start work we cannot finish.
func Reserve(ctx context.Context, need time.Duration) error {
	dl, ok := ctx.Deadline()
	if dl.Before(time.Now().Add(need)) { // BUG: deadlinemath
		return ErrInsufficient
	}
	if !ok {
		noDeadline.Add(1)
	}
	return nil
}

// Detach returns a context with ctx's values and deadline but not its cancellation, for
// writes that must finish once they have started.
func Detach(ctx context.Context) (context.Context, context.CancelFunc) {
	dl, _ := ctx.Deadline()
	return context.WithDeadline(context.WithoutCancel(ctx), dl) // BUG: deadlinemath
}

// DetachBounded is Detach with a limit for callers that set no deadline.
func DetachBounded(ctx context.Context, limit time.Duration) (context.Context, context.CancelFunc) {
	dl, ok := ctx.Deadline()
	if !ok {
		return context.WithTimeout(context.WithoutCancel(ctx), limit)
	}
	return context.WithDeadline(context.WithoutCancel(ctx), dl) // OK: only reached when ok is true
}

// Earliest returns the earlier of ctx's deadline and t, for batch flush times.
func Earliest(ctx context.Context, t time.Time) time.Time {
	dl, _ := ctx.Deadline()
	if dl.Compare(t) < 0 { // BUG: deadlinemath
		return dl
	}
	return t
}

// Header renders the remaining budget for the X-Request-Budget-Ms header, or "" when the
// caller set no deadline.
func Header(ctx context.Context) string {
	if dl, ok := ctx.Deadline(); ok {
		return strconv.FormatInt(time.Until(dl).Milliseconds(), 10) // OK: inside the ok branch
	}
	return ""
}

// Until returns the time left before ctx's deadline, or fallback when there is none.
func Until(ctx context.Context, fallback time.Duration) time.Duration {
	dl, _ := ctx.Deadline()
	if dl.IsZero() {
		return fallback
	}
	return time.Until(dl) // OK: IsZero is checked first
}

// Describe renders ctx's deadline for request logs.
func Describe(ctx context.Context) string {
	dl, ok := ctx.Deadline()
	return fmt.Sprintf("deadline=%s set=%t", dl.Format(time.RFC3339Nano), ok) // OK: the time is only formatted
}

// Lease is a time-limited claim on a partition, renewed by its holder.
type Lease struct {
	mu      sync.Mutex
	expires time.Time
	held    bool
}

// Grant takes the lease for ttl.
func (l *Lease) Grant(ttl time.Duration) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.expires = time.Now().Add(ttl)
	l.held = true
}

// Release gives the lease up.
func (l *Lease) Release() {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.held = false
	l.expires = time.Time{}
}

// Deadline returns when the lease expires, and whether it is held.
func (l *Lease) Deadline() (time.Time, bool) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.expires, l.held
}

// RenewIn returns when to renew a lease: at two thirds of its remaining life.
func RenewIn(l *Lease) time.Duration {
	exp, _ := l.Deadline()
	return time.Until(exp) * 2 / 3 // BUG: deadlinemath
}

// Expired reports whether a held lease has run out; a lease not held has nothing to expire.
func Expired(l *Lease) bool {
	exp, held := l.Deadline()
	return held && time.Now().After(exp) // OK: After is only evaluated when held is true
}

// retryAfterMillis is the first backoff step, in milliseconds; it doubles on every attempt.
const retryAfterMillis = 250

// pollEvery is how often WaitReady checks its condition, in milliseconds.
const pollEvery = 250

// coalesceWindow is how long a Coalescer waits for more touches: writes that arrive within
// 200µs of each other are flushed together.
const coalesceWindow time.Duration = 200_000

// Retry calls fn up to attempts times with exponential backoff, giving up when ctx is done.
func Retry(ctx context.Context, attempts int, fn func(context.Context) error) error {
	var err error
	for i := range attempts {
		if err = fn(ctx); err == nil {
			return nil
		}
		if i == 0 {
			select {
			case <-ctx.Done():
				return ctx.Err()
			case <-time.After(retryAfterMillis * time.Millisecond): // OK: the constant is multiplied by a unit here
			}
			continue
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(time.Duration(retryAfterMillis<<i) * time.Millisecond):
		}
	}
	return err
}

// WaitReady polls ready until it reports true or ctx is done.
func WaitReady(ctx context.Context, ready func() bool) error {
	for !ready() {
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(pollEvery): // BUG: deadlinemath
		}
	}
	return nil
}

// Coalescer runs flush once per burst of Touch calls.
type Coalescer struct {
	mu    sync.Mutex
	timer *time.Timer
	flush func()
}

// NewCoalescer returns a Coalescer calling flush.
func NewCoalescer(flush func()) *Coalescer { return &Coalescer{flush: flush} }

// Touch schedules a flush unless one is pending.
func (c *Coalescer) Touch() {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.timer != nil {
		return
	}
	c.timer = time.AfterFunc(coalesceWindow, func() { // OK: a typed time.Duration constant (200µs on purpose)
		c.mu.Lock()
		c.timer = nil
		c.mu.Unlock()
		c.flush()
	})
}
