// Package zlog is the logger of a dependency module: the package functions log through a
// package variable of its Logger interface, set only to its own zapLogger (named, then given
// a call depth), whose methods read the ctx's fields and, on a malformed line, report it
// through Error again: a cycle that only reads values from the ctx.
package zlog

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
	l := newLogger(depth)
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

func newLogger(depth int) *zapLogger { return &zapLogger{depth: depth} }

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
