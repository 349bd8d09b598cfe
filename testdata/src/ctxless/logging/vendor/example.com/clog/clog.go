// Package clog is a dependency (it lies under vendor/): a structured logger behind an interface
// with Context variants that only read the trace from their ctx, and a Sink whose
// FlushContext does network work with its ctx.
package clog

import (
	"context"
	"net/http"
)

type traceKey struct{}

// Logger logs; its Context variants attach the ctx's trace to the line.
type Logger interface {
	Debug(msg string, kv ...any)
	DebugContext(ctx context.Context, msg string, kv ...any)
}

// New returns a logger writing lines.
func New() Logger { return wrapper{} }

// Nop returns a logger that drops every line.
func Nop() Logger { return nop{} }

// Multi returns a logger writing to every one of ls.
func Multi(ls ...Logger) Logger { return multi{ls: ls} }

type wrapper struct{}

func (wrapper) Debug(msg string, kv ...any) { print(msg) }

func (wrapper) DebugContext(ctx context.Context, msg string, kv ...any) {
	if t, ok := ctx.Value(traceKey{}).(string); ok {
		msg = t + " " + msg
	}
	print(msg)
}

type nop struct{}

func (nop) Debug(string, ...any)                         {}
func (nop) DebugContext(context.Context, string, ...any) {}

type multi struct{ ls []Logger }

func (m multi) Debug(msg string, kv ...any) {
	for _, l := range m.ls {
		l.Debug(msg, kv...)
	}
}

func (m multi) DebugContext(ctx context.Context, msg string, kv ...any) {
	for _, l := range m.ls {
		l.DebugContext(ctx, msg, kv...)
	}
}

// Sink ships buffered lines; FlushContext sends them with the ctx it is given.
type Sink interface {
	Flush() error
	FlushContext(ctx context.Context) error
}

// NewSink returns a sink posting to url.
func NewSink(url string) Sink { return remote{url: url} }

type remote struct{ url string }

func (r remote) Flush() error { return r.FlushContext(context.Background()) }

func (r remote) FlushContext(ctx context.Context) error {
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, r.url, nil)
	if err != nil {
		return err
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return err
	}
	return resp.Body.Close()
}

// Verbose logs at a level when true, as glog's does: InfoContext hands its ctx to the hook the
// program installed, which may do anything with it, and returns nothing.
type Verbose bool

// Hook receives every line with its ctx.
var Hook func(ctx context.Context, line string)

// V returns whether lines at level are logged.
func V(level int) Verbose { return level < 2 }

// Info logs a line.
func (v Verbose) Info(line string) { v.InfoContext(context.Background(), line) }

// InfoContext logs a line with the ctx's values.
func (v Verbose) InfoContext(ctx context.Context, line string) {
	if v && Hook != nil {
		Hook(ctx, line)
	}
}

// Post sends a line and waits for the collector's answer.
func (v Verbose) Post(line string) error { return v.PostContext(context.Background(), line) }

// PostContext sends a line with the ctx the call is given.
func (v Verbose) PostContext(ctx context.Context, line string) error {
	if v && Hook != nil {
		Hook(ctx, line)
	}
	return ctx.Err()
}
