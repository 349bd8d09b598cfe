// Package obs is the service's logging, metrics and tracing glue. Nothing in
// here blocks on a context: contexts only carry the trace and tenant fields.
package obs

import (
	"context"
	"log/slog"
)

type traceKey struct{}
type tenantKey struct{}

// WithTraceID returns ctx carrying the trace id of the current request.
func WithTraceID(ctx context.Context, id string) context.Context {
	return context.WithValue(ctx, traceKey{}, id)
}

// TraceID returns the trace id carried by ctx, or "".
func TraceID(ctx context.Context) string {
	id, _ := ctx.Value(traceKey{}).(string)
	return id
}

// WithTenant tags ctx with the tenant a request acts for.
func WithTenant(ctx context.Context, tenant string) context.Context {
	return context.WithValue(ctx, tenantKey{}, tenant)
}

// Tenant returns the tenant tag of ctx.
func Tenant(ctx context.Context) string {
	t, _ := ctx.Value(tenantKey{}).(string)
	return t
}

func fields(ctx context.Context, args []any) []any {
	if id := TraceID(ctx); id != "" {
		args = append(args, "trace_id", id)
	}
	if t := Tenant(ctx); t != "" {
		args = append(args, "tenant", t)
	}
	return args
}

// Info logs msg with the trace fields of ctx.
func Info(ctx context.Context, msg string, args ...any) {
	slog.Info(msg, fields(ctx, args)...)
}

// Warn logs msg at warning level with the trace fields of ctx.
func Warn(ctx context.Context, msg string, args ...any) {
	slog.Warn(msg, fields(ctx, args)...)
}

// Error logs msg at error level with the trace fields of ctx.
func Error(ctx context.Context, msg string, args ...any) {
	slog.Error(msg, fields(ctx, args)...)
}

// Inject is the failpoint marker. Release builds compile the hooks out; the
// build tool rewrites calls of Inject for failpoint-enabled builds.
func Inject(name string, hook func()) {}
