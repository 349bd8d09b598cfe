// Package logx is the user's own logger of the same shape as zlog: With keeps the ctx in the
// entry, whose methods only read values from it. Task keeps its ctx to wait on it: work.
package logx

import (
	"context"
	"fmt"
	"time"

	"go.opentelemetry.io/otel/trace"
)

type entry struct {
	ctx  context.Context
	tags []string
}

// With returns an entry carrying ctx.
func With(ctx context.Context) *entry { return &entry{ctx: ctx} }

// Tag returns a copy of the entry with one more tag.
func (e *entry) Tag(t string) *entry {
	c := &entry{tags: append(e.tags, t)}
	c.ctx = e.ctx
	return c
}

// Info writes a line with the entry's trace.
func (e *entry) Info(msg string) {
	fmt.Println(msg, e.tags, trace.SpanFromContext(e.ctx))
}

// Task is work that waits for its ctx.
type Task struct {
	ctx context.Context
}

// NewTask returns a task bound to ctx.
func NewTask(ctx context.Context) *Task { return &Task{ctx: ctx} }

// Wait waits until the task's ctx is done or d has passed.
func (t *Task) Wait(d time.Duration) error {
	select {
	case <-t.ctx.Done():
		return t.ctx.Err()
	case <-time.After(d):
		return nil
	}
}
