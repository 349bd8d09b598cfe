// Package telemetry holds the control plane's logging, tracing, metrics and
// audit plumbing. Everything here takes a context only to read the trace and
// request fields out of it, except the audit sinks, which ship rows.
package telemetry

import (
	"context"
	"log/slog"
	"os"
)

type requestIDKey struct{}

// WithRequestID attaches the request id used to correlate log lines.
func WithRequestID(ctx context.Context, id string) context.Context {
	return context.WithValue(ctx, requestIDKey{}, id)
}

// RequestID returns the id attached by WithRequestID, or "".
func RequestID(ctx context.Context) string {
	if v, ok := ctx.Value(requestIDKey{}).(string); ok {
		return v
	}
	return ""
}

// Logger is a thin wrapper that decorates every line with the request id and
// the current span.
type Logger struct {
	base *slog.Logger
}

// NewLogger returns a Logger writing JSON to stderr.
func NewLogger(component string) *Logger {
	h := slog.NewJSONHandler(os.Stderr, &slog.HandlerOptions{Level: slog.LevelDebug})
	return &Logger{base: slog.New(h).With("component", component)}
}

func (l *Logger) fields(ctx context.Context, args []any) []any {
	if id := RequestID(ctx); id != "" {
		args = append(args, "request_id", id)
	}
	if sp := SpanFromContext(ctx); sp != nil {
		args = append(args, "trace_id", sp.TraceID, "span", sp.Name)
	}
	return args
}

func (l *Logger) Debug(ctx context.Context, msg string, args ...any) {
	l.base.DebugContext(ctx, msg, l.fields(ctx, args)...)
}

func (l *Logger) Info(ctx context.Context, msg string, args ...any) {
	l.base.InfoContext(ctx, msg, l.fields(ctx, args)...)
}

func (l *Logger) Warn(ctx context.Context, msg string, args ...any) {
	l.base.WarnContext(ctx, msg, l.fields(ctx, args)...)
}

func (l *Logger) Error(ctx context.Context, msg string, err error, args ...any) {
	l.base.ErrorContext(ctx, msg, l.fields(ctx, append(args, "err", err))...)
}
