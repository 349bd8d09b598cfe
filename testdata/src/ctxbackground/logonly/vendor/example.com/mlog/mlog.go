// Package mlog is a structured logger of a dependency module: Info reads the fields and the span
// a ctx carries and writes a line, doing nothing with the ctx that a deadline matters to. Ship
// sends the line to a collector and waits for it under the ctx: that is work.
package mlog

import (
	"context"
	"fmt"
	"time"

	"go.opentelemetry.io/otel/trace"
)

type fieldsKey struct{}

type logContext struct{ fields []string }

func getLogContext(ctx context.Context) *logContext {
	if ctx == nil {
		return &logContext{}
	}
	if lc, ok := ctx.Value(fieldsKey{}).(*logContext); ok && lc != nil {
		return lc
	}
	return &logContext{}
}

func prepare(ctx context.Context, fields []string) []string {
	if ctx == nil {
		return append(fields, "_ctx_nil")
	}
	fields = append(getLogContext(ctx).fields, fields...)
	if span := trace.SpanFromContext(ctx); span != nil {
		fields = append(fields, "traced")
	}
	return fields
}

// With returns a ctx that carries fields for later lines.
func With(ctx context.Context, fields ...string) context.Context {
	return context.WithValue(ctx, fieldsKey{}, &logContext{fields: append(getLogContext(ctx).fields, fields...)})
}

// Info writes a line with the fields and span of ctx.
func Info(ctx context.Context, msg string, fields ...string) {
	fmt.Println(msg, prepare(ctx, fields))
}

// Ship sends a line to the collector, waiting for its answer until ctx is done.
func Ship(ctx context.Context, msg string) error {
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-time.After(time.Second):
		fmt.Println(msg)
		return nil
	}
}
