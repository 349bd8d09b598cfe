// Package logrus is a stand-in for the logger of that path: WithContext keeps the ctx in the
// entry it returns, for hooks that read its values when a line is written.
package logrus

import (
	"context"
	"fmt"
)

// Fields are a line's fields.
type Fields map[string]any

// Logger writes lines.
type Logger struct{ Hooks []func(*Entry) }

// Entry is a line being built.
type Entry struct {
	Logger  *Logger
	Data    Fields
	Context context.Context
}

var std = &Logger{}

// New returns a logger.
func New() *Logger { return &Logger{} }

// WithContext returns an entry of the standard logger carrying ctx.
func WithContext(ctx context.Context) *Entry { return std.WithContext(ctx) }

// WithContext returns an entry carrying ctx.
func (l *Logger) WithContext(ctx context.Context) *Entry {
	e := &Entry{Logger: l, Data: Fields{}}
	return e.WithContext(ctx)
}

// WithContext returns a copy of the entry carrying ctx.
func (e *Entry) WithContext(ctx context.Context) *Entry {
	return &Entry{Logger: e.Logger, Data: e.Data, Context: ctx}
}

// WithField returns a copy of the entry with one more field.
func (e *Entry) WithField(k string, v any) *Entry {
	data := Fields{k: v}
	for k, v := range e.Data {
		data[k] = v
	}
	return &Entry{Logger: e.Logger, Data: data, Context: e.Context}
}

// Info writes a line.
func (e *Entry) Info(args ...any) { e.write(fmt.Sprint(args...)) }

// Debugf writes a formatted line.
func (e *Entry) Debugf(format string, args ...any) { e.write(fmt.Sprintf(format, args...)) }

func (e *Entry) write(msg string) {
	for _, h := range e.Logger.Hooks {
		h(e)
	}
	fmt.Println(msg, e.Data)
}
