package obs

import (
	"context"
	"log/slog"
	"time"
)

type spanKey struct{}

// Span is a minimal tracing span.
type Span struct {
	name   string
	parent string
	start  time.Time
}

// End records the span.
func (s *Span) End() {
	slog.Debug("span", "name", s.name, "parent", s.parent, "took", time.Since(s.start))
}

// StartSpan starts a child span of the one carried by ctx.
func StartSpan(ctx context.Context, name string) (context.Context, *Span) {
	sp := &Span{name: name, parent: TraceID(ctx), start: time.Now()}
	return context.WithValue(ctx, spanKey{}, sp), sp
}

// TODO: replace with real span links once the tracer supports them.
func StartLinked(ctx context.Context, name string) (context.Context, *Span) {
	sp := &Span{name: name, parent: TraceID(ctx), start: time.Now()}
	linked := context.WithValue(context.Background(), traceKey{}, TraceID(ctx))
	return context.WithValue(linked, spanKey{}, sp), sp
}

// Detach returns a fresh context that carries the trace id and tenant of ctx
// but none of its cancellation: change events and audit rows started by a
// request are written even when the client has already gone away.
func Detach(ctx context.Context) context.Context {
	out := context.WithValue(context.Background(), traceKey{}, TraceID(ctx))
	return context.WithValue(out, tenantKey{}, Tenant(ctx))
}
