// Package tracectx reads and sets the trace a ctx carries, and detaches a request's ctx by
// hand through those helpers: a documented helper that reads values through functions that
// only read them, and wraps its root in functions that only add values, is a detach. One
// whose wrapper also works with the root is not.
package tracectx

import (
	"context"

	"google.golang.org/grpc/metadata"
)

type traceKey struct{}

// TraceID returns the trace id the ctx carries.
func TraceID(ctx context.Context) string {
	id, _ := ctx.Value(traceKey{}).(string)
	return id
}

// WithTrace returns ctx carrying the trace id.
func WithTrace(ctx context.Context, id string) context.Context {
	return context.WithValue(ctx, traceKey{}, id)
}

// CopyTrace returns to carrying the trace of from.
func CopyTrace(to, from context.Context) context.Context {
	return WithTrace(to, TraceID(from))
}

// Register returns ctx carrying the trace id, after recording the id with the collector.
func Register(ctx context.Context, id string, record func(context.Context, string)) context.Context {
	record(ctx, id)
	return WithTrace(ctx, id)
}

// Detach returns a fresh ctx carrying the request's headers and trace, and none of its
// cancellation: the audit trail a request starts is written even when its client has gone.
func Detach(ctx context.Context) context.Context {
	md, _ := metadata.FromIncomingContext(ctx)
	out := metadata.NewIncomingContext(context.Background(), md)
	return CopyTrace(out, ctx)
}

// Recorded returns a fresh ctx carrying the request's trace, recorded as it is made.
func Recorded(ctx context.Context, record func(context.Context, string)) context.Context {
	return Register(context.Background(), TraceID(ctx), record)
}
