// Package obs holds the engine's small logging, metric and tracing helpers.
package obs

import (
	"context"
	"fmt"
	"io"
	"os"
	"sync"
	"time"
)

type ctxKey int

const (
	traceKey ctxKey = iota
	nsKey
)

// TraceID returns the trace id the request carries, if any.
func TraceID(ctx context.Context) string {
	v, _ := ctx.Value(traceKey).(string)
	return v
}

// WithTraceID returns ctx carrying id.
func WithTraceID(ctx context.Context, id string) context.Context {
	return context.WithValue(ctx, traceKey, id)
}

// Namespace returns the namespace the interceptor stored in ctx.
func Namespace(ctx context.Context) string {
	v, _ := ctx.Value(nsKey).(string)
	return v
}

// WithNamespace returns ctx carrying ns.
func WithNamespace(ctx context.Context, ns string) context.Context {
	return context.WithValue(ctx, nsKey, ns)
}

// Logger writes one line per call, tagged with the ctx's trace id.
type Logger struct {
	mu sync.Mutex
	w  io.Writer
}

// L is the process logger.
var L = &Logger{w: os.Stderr}

// Info logs msg with the trace of ctx.
func (l *Logger) Info(ctx context.Context, msg string, kv ...any) {
	l.write(TraceID(ctx), "INFO", msg, kv)
}

// Error logs msg with the trace of ctx.
func (l *Logger) Error(ctx context.Context, msg string, kv ...any) {
	l.write(TraceID(ctx), "ERROR", msg, kv)
}

func (l *Logger) write(trace, level, msg string, kv []any) {
	l.mu.Lock()
	defer l.mu.Unlock()
	fmt.Fprintf(l.w, "%s %s trace=%s %s %v\n", time.Now().Format(time.RFC3339), level, trace, msg, kv)
}

// Detached returns a fresh context that carries the request's trace id and
// namespace but none of its cancellation. The engine uses it for work it has
// committed to once a request was accepted (visibility rows, replication):
// that work must finish even when the caller gives up.
func Detached(ctx context.Context) context.Context {
	out := WithTraceID(context.Background(), TraceID(ctx))
	return WithNamespace(out, Namespace(ctx))
}

// StartLinked starts a span linked to the request's trace.
// TODO: document the lifetime of the returned context.
func StartLinked(ctx context.Context, name string) (context.Context, *Span) {
	out := WithTraceID(context.Background(), TraceID(ctx))
	return StartSpan(out, name)
}
