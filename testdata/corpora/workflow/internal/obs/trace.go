package obs

import (
	"context"
	"time"
)

type spanKey struct{}

// Span is a minimal tracing span.
type Span struct {
	Name  string
	Start time.Time
	Trace string
}

// StartSpan starts a span as a child of ctx.
func StartSpan(ctx context.Context, name string) (context.Context, *Span) {
	s := &Span{Name: name, Start: time.Now(), Trace: TraceID(ctx)}
	return context.WithValue(ctx, spanKey{}, s), s
}

// End ends the span.
func (s *Span) End() { _ = time.Since(s.Start) }
