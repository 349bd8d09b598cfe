// Package evil holds the data-flow shapes most likely to fool the detach rule: helpers that
// bound or do not bound the detached ctx, phis, re-assignments, closures, method values,
// generics, errgroup, and functions whose bodies are out of sight.
package evil

import (
	"context"
	"errors"
	"runtime/pprof"
	"time"

	"golang.org/x/sync/errgroup"
)

type auditLog interface {
	Append(ctx context.Context, rec string) error
}

// Service writes audit records and events.
type Service struct {
	log auditLog
	job context.Context
}

// withBudget bounds any ctx: the deadline is applied in a helper of the same package.
func withBudget(ctx context.Context) (context.Context, context.CancelFunc) {
	return context.WithTimeout(ctx, 2*time.Second)
}

// HelperBounds: the resolver follows withBudget and sees its WithTimeout.
func (s *Service) HelperBounds(ctx context.Context) error {
	// the audit row must be written even if the client gives up
	actx, cancel := withBudget(context.WithoutCancel(ctx))
	defer cancel()
	return s.log.Append(actx, "helper")
}

// appendBounded takes any ctx and bounds it before doing the work.
func (s *Service) appendBounded(ctx context.Context, rec string) error {
	bctx, cancel := context.WithTimeout(ctx, time.Second)
	defer cancel()
	return s.log.Append(bctx, rec)
}

// appendRaw does the work with whatever ctx it is given.
func (s *Service) appendRaw(ctx context.Context, rec string) error { // want appendRaw:"unbounded work"
	return s.log.Append(ctx, rec)
}

// CalleeBounds: the work happens in a callee that adds its own deadline.
func (s *Service) CalleeBounds(ctx context.Context) error {
	// the audit row must be written even if the client gives up
	return s.appendBounded(context.WithoutCancel(ctx), "callee")
}

// CalleeDoesNotBound: the callee passes the detached ctx straight to the log.
func (s *Service) CalleeDoesNotBound(ctx context.Context) error { // want +2 `runs work with no deadline of its own; bound it`
	// the audit row must be written even if the client gives up
	return s.appendRaw(context.WithoutCancel(ctx), "callee")
}

// twoHops calls appendRaw through another helper.
func (s *Service) twoHops(ctx context.Context, rec string) error { // want twoHops:"unbounded work"
	return s.appendRaw(ctx, rec)
}

// CalleeTwoHops: the work is two calls down.
func (s *Service) CalleeTwoHops(ctx context.Context) error { // want +2 `runs work with no deadline of its own; bound it`
	// the audit row must be written even if the client gives up
	return s.twoHops(context.WithoutCancel(ctx), "hops")
}

// Phi: one path adds a timeout and the other does not.
func (s *Service) Phi(ctx context.Context, urgent bool) error { // want +2 `runs work with no deadline of its own; bound it`
	// the audit row must be written even if the client gives up
	actx := context.WithoutCancel(ctx)
	if urgent {
		var cancel context.CancelFunc
		actx, cancel = context.WithTimeout(actx, time.Second)
		defer cancel()
	}
	return s.log.Append(actx, "phi")
}

// Reassigned: the detached ctx is re-assigned with a timeout before any work.
func (s *Service) Reassigned(ctx context.Context) error {
	// the audit row must be written even if the client gives up
	actx := context.WithoutCancel(ctx)
	actx, cancel := context.WithTimeout(actx, time.Second)
	defer cancel()
	return s.log.Append(actx, "reassigned")
}

// Causes: the ...Cause variants bound as well.
func (s *Service) Causes(ctx context.Context) error {
	// the audit row must be written even if the client gives up
	tctx, cancel := context.WithTimeoutCause(context.WithoutCancel(ctx), time.Second, errors.New("audit budget"))
	defer cancel()
	// so must the event
	dctx, cancel2 := context.WithDeadlineCause(context.WithoutCancel(ctx), time.Now().Add(time.Second), errors.New("event budget"))
	defer cancel2()
	if err := s.log.Append(tctx, "timeout"); err != nil {
		return err
	}
	return s.log.Append(dctx, "deadline")
}

// GoLiteralBounds: the goroutine's own parameter is bounded inside it.
func (s *Service) GoLiteralBounds(ctx context.Context) {
	// the audit row must be written even if the client gives up
	go func(c context.Context) {
		c, cancel := context.WithTimeout(c, time.Second)
		defer cancel()
		_ = s.log.Append(c, "go")
	}(context.WithoutCancel(ctx))
}

// GoLiteralDoesNotBound: the goroutine runs the detached work unbounded.
func (s *Service) GoLiteralDoesNotBound(ctx context.Context) { // want +4 `runs work with no deadline of its own; bound it`
	// the audit row must be written even if the client gives up
	go func(c context.Context) {
		_ = s.log.Append(c, "go")
	}(context.WithoutCancel(ctx))
}

// MethodValue calls the work through a bound method value.
func (s *Service) MethodValue(ctx context.Context) error { // want +3 `runs work with no deadline of its own; bound it`
	write := s.appendRaw
	// the audit row must be written even if the client gives up
	return write(context.WithoutCancel(ctx), "method value")
}

// Deferred starts the unbounded work in a defer.
func (s *Service) Deferred(ctx context.Context) { // want +2 `runs work with no deadline of its own; bound it`
	// the audit row must be written even if the client gives up
	defer s.appendRaw(context.WithoutCancel(ctx), "deferred")
}

// Errgroup: a group derived from the detached ctx has no deadline either.
func (s *Service) Errgroup(ctx context.Context) error { // want +2 `runs work with no deadline of its own; bound it`
	// the fan-out must finish even if the client gives up
	g, gctx := errgroup.WithContext(context.WithoutCancel(ctx))
	for _, rec := range []string{"a", "b"} {
		g.Go(func() error { return s.log.Append(gctx, rec) })
	}
	return g.Wait()
}

// appendAll is generic: the resolver and the rule look into its origin's body.
func appendAll[T ~string](ctx context.Context, log auditLog, recs []T) error { // want appendAll:"unbounded work"
	for _, r := range recs {
		if err := log.Append(ctx, string(r)); err != nil {
			return err
		}
	}
	return nil
}

// Generic hands the detached ctx to a generic helper that does not bound it.
func (s *Service) Generic(ctx context.Context) error { // want +2 `runs work with no deadline of its own; bound it`
	// the audit rows must be written even if the client gives up
	return appendAll(context.WithoutCancel(ctx), s.log, []string{"x"})
}

// Opaque: pprof.WithLabels is a function of another package that returns a ctx; whether it
// adds a deadline cannot be seen, so unboundedness is not claimed.
func (s *Service) Opaque(ctx context.Context) error {
	// the audit row must be written even if the client gives up
	lctx := pprof.WithLabels(context.WithoutCancel(ctx), pprof.Labels("job", "audit"))
	return s.log.Append(lctx, "opaque")
}

// detached returns a detached ctx; its callers decide what runs on it. Documented, a helper
// whose job is the detach has its reason: only the bound is missing.
func detached(ctx context.Context) context.Context { // want +1 `runs work with no deadline of its own; bound it`
	return context.WithoutCancel(ctx)
}

// ReturnedDetached does unbounded work with the helper's detached ctx: the finding is at the
// WithoutCancel call in the helper.
func (s *Service) ReturnedDetached(ctx context.Context) error {
	return s.log.Append(detached(ctx), "returned")
}

// StoredInField keeps the detached ctx for later: where it is used is out of sight, so only
// the missing reason is reported.
func (s *Service) StoredInField(ctx context.Context) { // want +1 `context.WithoutCancel\(ctx\) has no comment saying why`
	s.job = context.WithoutCancel(ctx)
}

// Returned: a detached ctx handed to callers of another package, with a reason.
func Returned(ctx context.Context) context.Context {
	// callers run post-commit hooks that must not be cut short by the request
	return context.WithoutCancel(ctx)
}

// BothSinks: one sink is bounded, the other is not.
func (s *Service) BothSinks(ctx context.Context) error { // want +2 `runs work with no deadline of its own; bound it`
	// the audit row must be written even if the client gives up
	dctx := context.WithoutCancel(ctx)
	bctx, cancel := context.WithTimeout(dctx, time.Second)
	defer cancel()
	if err := s.log.Append(bctx, "bounded"); err != nil {
		return err
	}
	return s.log.Append(dctx, "unbounded")
}

// recurse is a recursive helper that bounds before the work.
func (s *Service) recurse(ctx context.Context, n int) error {
	if n > 0 {
		return s.recurse(ctx, n-1)
	}
	return s.appendBounded(ctx, "recursive")
}

// Recursive: the recursion must not loop, and the bound at its end counts.
func (s *Service) Recursive(ctx context.Context) error {
	// the audit row must be written even if the client gives up
	return s.recurse(context.WithoutCancel(ctx), 3)
}

// Shadowed: the name ctx is re-bound to the detached ctx, then bounded.
func (s *Service) Shadowed(ctx context.Context) error {
	// the audit row must be written even if the client gives up
	ctx = context.WithoutCancel(ctx)
	ctx, cancel := context.WithTimeout(ctx, time.Second)
	defer cancel()
	return s.log.Append(ctx, "shadowed")
}
