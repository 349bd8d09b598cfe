// Package servenv holds the process plumbing every daemon of the proxy
// shares: logging with trace ids, metrics, tracing spans, the process
// lifetime, error mapping and the gRPC interceptors.
package servenv

import (
	"context"
	"log"
)

type traceKey struct{}

// WithTraceID returns ctx carrying id as the request's trace id.
func WithTraceID(ctx context.Context, id string) context.Context {
	return context.WithValue(ctx, traceKey{}, id)
}

// TraceID returns the trace id carried by ctx, or "".
func TraceID(ctx context.Context) string {
	id, _ := ctx.Value(traceKey{}).(string)
	return id
}

// Infof logs an informational line tagged with the trace id of ctx. It only
// reads values from ctx.
func Infof(ctx context.Context, format string, args ...any) {
	logf(ctx, "I", format, args...)
}

// Warningf logs a warning tagged with the trace id of ctx.
func Warningf(ctx context.Context, format string, args ...any) {
	logf(ctx, "W", format, args...)
}

// Errorf logs an error tagged with the trace id of ctx.
func Errorf(ctx context.Context, format string, args ...any) {
	logf(ctx, "E", format, args...)
}

func logf(ctx context.Context, level, format string, args ...any) {
	prefix := level
	if id := TraceID(ctx); id != "" {
		prefix += " [" + id + "]"
	}
	log.Printf(prefix+" "+format, args...)
}
