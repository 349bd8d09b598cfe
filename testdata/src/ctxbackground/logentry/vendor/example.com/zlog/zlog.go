// Package zlog is a dependency's logger that keeps the ctx it is given in the entry it returns
// (an unexported field its package only reads values from: the trace, the fields), and a job
// runner that keeps its ctx in the same way to run a query with it later — work.
package zlog

import (
	"context"
	"database/sql"
	"fmt"

	"go.opentelemetry.io/otel/trace"
)

type fieldsKey struct{}

// Logger writes lines.
type Logger interface {
	Errorf(format string, args ...any)
	WithCallerSkip(n int) Logger
}

type entry struct {
	ctx  context.Context
	skip int
}

// WithContext returns a logger whose lines carry the trace and fields of ctx.
func WithContext(ctx context.Context) Logger { return &entry{ctx: ctx} }

// Errorf writes a line at the error level.
func Errorf(ctx context.Context, format string, args ...any) {
	WithContext(ctx).WithCallerSkip(1).Errorf(format, args...)
}

func (e *entry) WithCallerSkip(n int) Logger { return &entry{ctx: e.ctx, skip: e.skip + n} }

func (e *entry) Errorf(format string, args ...any) {
	fmt.Println(fmt.Sprintf(format, args...), e.fields())
}

func (e *entry) fields() []any {
	if e.ctx == nil {
		return nil
	}
	out := []any{trace.SpanFromContext(e.ctx)}
	if f, ok := e.ctx.Value(fieldsKey{}).([]any); ok {
		out = append(out, f...)
	}
	return out
}

type job struct {
	ctx context.Context
	db  *sql.DB
}

// Later queues a query to run with ctx.
func Later(ctx context.Context, db *sql.DB) func() error {
	j := &job{db: db}
	j.ctx = ctx
	return j.run
}

func (j *job) run() error {
	_, err := j.db.ExecContext(j.ctx, "delete from sessions where expired")
	return err
}
