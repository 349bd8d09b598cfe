// Package trace is a stub of go.opentelemetry.io/otel/trace: the parts deadlinelint's tests
// use, with the real signatures.
package trace

import "context"

// SpanStartOption configures a span.
type SpanStartOption interface{ applySpanStart() }

// SpanContext identifies a span.
type SpanContext struct{ traceID [16]byte }

// Span is the individual component of a trace.
type Span interface {
	End(options ...SpanEndOption)
	SpanContext() SpanContext
}

// SpanEndOption configures the end of a span.
type SpanEndOption interface{ applySpanEnd() }

// Tracer is the creator of Spans.
type Tracer interface {
	Start(ctx context.Context, spanName string, opts ...SpanStartOption) (context.Context, Span)
}

type spanKey struct{}

// ContextWithSpan returns a copy of parent with span set as the current Span.
func ContextWithSpan(parent context.Context, span Span) context.Context {
	return context.WithValue(parent, spanKey{}, span)
}

// SpanFromContext returns the current Span from ctx.
func SpanFromContext(ctx context.Context) Span {
	s, _ := ctx.Value(spanKey{}).(Span)
	return s
}
