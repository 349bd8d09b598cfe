// Package pkglogger logs through a package variable of its Logger interface that only ever
// holds its own zapLogger, named by an interface call on the variable itself: its methods read
// the ctx's fields and report a malformed line through Error again. Every value the variable
// may hold is in sight, so the cycle is the whole story: a root handed to Info or Error only
// carries values.
package pkglogger

import (
	"context"
	"fmt"
)

// Logger writes lines.
type Logger interface {
	Info(ctx context.Context, msg string, kv ...any)
	Error(ctx context.Context, msg string, err error, kv ...any)
	Named(name string) Logger
}

var std Logger

// Init builds the package logger.
func Init(name string, depth int) {
	l := &zapLogger{}
	std = l.withDepth(depth)
	if name != "" {
		std = std.Named(name)
	}
}

// Info logs a line with the fields of ctx.
func Info(ctx context.Context, msg string, kv ...any) { std.Info(ctx, msg, kv...) }

// Error logs an error with the fields of ctx.
func Error(ctx context.Context, msg string, err error, kv ...any) { std.Error(ctx, msg, err, kv...) }

type opKey struct{}

type zapLogger struct {
	name  string
	depth int
	level int
}

func (l *zapLogger) withDepth(depth int) Logger {
	c := *l
	c.depth = depth
	return &c
}

func (l *zapLogger) Named(name string) Logger {
	c := *l
	c.name = name
	return &c
}

func (l *zapLogger) Info(ctx context.Context, msg string, kv ...any) {
	if l.level > 0 {
		return
	}
	fmt.Println(l.name, msg, l.fields(ctx, kv))
}

func (l *zapLogger) Error(ctx context.Context, msg string, err error, kv ...any) {
	fmt.Println(l.name, msg, err, l.fields(ctx, kv))
}

func (l *zapLogger) fields(ctx context.Context, kv []any) []any {
	if ctx == nil {
		return kv
	}
	if len(kv)%2 != 0 {
		Error(ctx, "odd number of fields", nil)
	}
	if op, ok := ctx.Value(opKey{}).(string); ok {
		kv = append(kv, "op", op)
	}
	return kv
}

// Audit logs with a root of its own: only values are lost.
func Audit(msg string) { Info(context.Background(), msg) }
