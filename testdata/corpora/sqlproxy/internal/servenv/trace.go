package servenv

import (
	"context"

	"go.opentelemetry.io/otel/trace"
	tracenoop "go.opentelemetry.io/otel/trace/noop"
)

// Tracer is the process's tracer; main may replace it before serving.
var Tracer trace.Tracer = tracenoop.NewTracerProvider().Tracer("example.test/sqlproxy")

// StartSpan starts a span named name as a child of the span of ctx and
// returns it; the caller ends it. The context the tracer returns is not
// needed by the callers, who keep their own.
func StartSpan(ctx context.Context, name string) trace.Span {
	_, span := Tracer.Start(ctx, name)
	return span
}

// StartLinkedSpan starts name as the root span of a new trace, linked to
// the span of ctx, and returns the context carrying it. Batches are traced
// on their own so that one slow statement does not make the caller's trace
// unreadable.
func StartLinkedSpan(ctx context.Context, name string) (context.Context, trace.Span) {
	link := trace.LinkFromContext(ctx)
	return Tracer.Start(context.Background(), name, trace.WithLinks(link))
}
