// Package pluglogger is pkglogger's logger with a setter: the program may plug in a Logger of
// its own, out of sight, and the cycle through the package variable proves nothing about it.
// A root handed to Info may be work.
package pluglogger

import (
	"context"
	"fmt"
)

// Logger writes lines.
type Logger interface {
	Info(ctx context.Context, msg string, kv ...any)
	Error(ctx context.Context, msg string, err error, kv ...any)
}

var std Logger = &zapLogger{}

// Use plugs in the program's logger.
func Use(l Logger) { std = l }

// Info logs a line with the fields of ctx.
func Info(ctx context.Context, msg string, kv ...any) { std.Info(ctx, msg, kv...) }

// Error logs an error with the fields of ctx.
func Error(ctx context.Context, msg string, err error, kv ...any) { std.Error(ctx, msg, err, kv...) }

type opKey struct{}

type zapLogger struct{ name string }

func (l *zapLogger) Info(ctx context.Context, msg string, kv ...any) {
	fmt.Println(l.name, msg, l.fields(ctx, kv))
}

func (l *zapLogger) Error(ctx context.Context, msg string, err error, kv ...any) {
	fmt.Println(l.name, msg, err, l.fields(ctx, kv))
}

func (l *zapLogger) fields(ctx context.Context, kv []any) []any {
	if len(kv)%2 != 0 {
		Error(ctx, "odd number of fields", nil)
	}
	if op, ok := ctx.Value(opKey{}).(string); ok {
		kv = append(kv, "op", op)
	}
	return kv
}

// Audit logs with a root of its own through whatever logger the program plugged in.
func Audit(msg string) { // want Audit:"drops ctx"
	Info(context.Background(), msg)
}
