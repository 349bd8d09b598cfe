package evil

import (
	"context"
	"time"
)

type traceKey struct{}

// CapturedRevalued: the captured variable is re-assigned, but never bounded.
func (s *Service) CapturedRevalued(ctx context.Context) { // want +2 `runs work with no deadline of its own; bound it`
	// the audit row must be written even if the client gives up
	actx := context.WithoutCancel(ctx)
	actx = context.WithValue(actx, traceKey{}, "audit")
	go func() {
		_ = s.log.Append(actx, "revalued")
	}()
}

// CapturedConditional: only one path bounds the captured variable.
func (s *Service) CapturedConditional(ctx context.Context, urgent bool) { // want +2 `runs work with no deadline of its own; bound it`
	// the audit row must be written even if the client gives up
	actx := context.WithoutCancel(ctx)
	cancel := context.CancelFunc(func() {})
	if urgent {
		actx, cancel = context.WithTimeout(actx, time.Second)
	}
	go func() {
		defer cancel()
		_ = s.log.Append(actx, "conditional")
	}()
}

// CapturedBoundedInside: the closure itself re-assigns the captured variable with a deadline.
func (s *Service) CapturedBoundedInside(ctx context.Context) {
	// the audit row must be written even if the client gives up
	actx := context.WithoutCancel(ctx)
	go func() {
		var cancel context.CancelFunc
		actx, cancel = context.WithTimeout(actx, time.Second)
		defer cancel()
		_ = s.log.Append(actx, "inside")
	}()
}
