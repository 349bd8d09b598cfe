// Package teelogger re-wraps its package logger through the Logger interface: a zapLogger
// wrapped becomes a prefixed one, and a prefixed one wrapped becomes a tee that ships each
// line to a collector with its ctx. The tee is only made by a call met again on the cycle of
// std = std.Wrapped(), so the types the variable may hold are not all in sight from the stores
// alone; with the tee counted, Info may be work.
package teelogger

import (
	"context"
	"fmt"
	"os/exec"
)

// Logger writes lines.
type Logger interface {
	Info(ctx context.Context, msg string)
	Wrapped() Logger
}

var std Logger = &zapLogger{}

// Wrap wraps the package logger once more.
func Wrap() { std = std.Wrapped() }

type fieldKey struct{}

type zapLogger struct{}

func (l *zapLogger) Info(ctx context.Context, msg string) { fmt.Println(msg, ctx.Value(fieldKey{})) }

func (l *zapLogger) Wrapped() Logger { return &prefixLogger{prefix: "> "} }

type prefixLogger struct{ prefix string }

func (p *prefixLogger) Info(ctx context.Context, msg string) {
	fmt.Println(p.prefix+msg, ctx.Value(fieldKey{}))
}

func (p *prefixLogger) Wrapped() Logger { return &tee{} }

// tee ships each line to the collector, waiting for it under the ctx.
type tee struct{}

func (t *tee) Info(ctx context.Context, msg string) { _ = exec.CommandContext(ctx, "ship", msg).Run() }

func (t *tee) Wrapped() Logger { return t }

// Audit logs with a root of its own: through the tee, that is work.
func Audit(msg string) { // want Audit:"drops ctx"
	std.Info(context.Background(), msg)
}
