// Package log is a small structured logger that stamps each line with the
// trace and tenant found in the context.
package log

import (
	"context"
	"fmt"
	"io"
	"os"
	"strings"
	"sync"
	"time"

	"example.test/telemetry/pkg/tenant"
	"example.test/telemetry/pkg/util/tracing"
)

// Logger writes logfmt lines.
type Logger struct {
	mu     sync.Mutex
	out    io.Writer
	fields []any
	debug  bool
}

// Default is the process logger.
var Default = New(os.Stderr)

// New returns a logger writing to w.
func New(w io.Writer) *Logger { return &Logger{out: w} }

// With returns a logger that adds kv to each line.
func (l *Logger) With(kv ...any) *Logger {
	return &Logger{out: l.out, fields: append(append([]any{}, l.fields...), kv...), debug: l.debug}
}

// SetDebug enables debug lines.
func (l *Logger) SetDebug(on bool) { l.debug = on }

func (l *Logger) Debug(ctx context.Context, msg string, kv ...any) {
	if l.debug {
		l.write(ctx, "debug", msg, kv)
	}
}
func (l *Logger) Info(ctx context.Context, msg string, kv ...any)  { l.write(ctx, "info", msg, kv) }
func (l *Logger) Warn(ctx context.Context, msg string, kv ...any)  { l.write(ctx, "warn", msg, kv) }
func (l *Logger) Error(ctx context.Context, msg string, kv ...any) { l.write(ctx, "error", msg, kv) }

func (l *Logger) write(ctx context.Context, level, msg string, kv []any) {
	var b strings.Builder
	fmt.Fprintf(&b, "ts=%s level=%s msg=%q", time.Now().UTC().Format(time.RFC3339Nano), level, msg)
	if tid := tracing.TraceID(ctx); tid != "" {
		fmt.Fprintf(&b, " trace_id=%s", tid)
	}
	if org := tenant.ID(ctx); org != "" {
		fmt.Fprintf(&b, " org_id=%s", org)
	}
	all := append(append([]any{}, l.fields...), kv...)
	for i := 0; i+1 < len(all); i += 2 {
		fmt.Fprintf(&b, " %v=%v", all[i], all[i+1])
	}
	b.WriteByte('\n')
	l.mu.Lock()
	defer l.mu.Unlock()
	_, _ = io.WriteString(l.out, b.String())
}

// Info logs on the default logger.
func Info(ctx context.Context, msg string, kv ...any) { Default.Info(ctx, msg, kv...) }

// Warn logs on the default logger.
func Warn(ctx context.Context, msg string, kv ...any) { Default.Warn(ctx, msg, kv...) }

// Error logs on the default logger.
func Error(ctx context.Context, msg string, kv ...any) { Default.Error(ctx, msg, kv...) }

// Debug logs on the default logger.
func Debug(ctx context.Context, msg string, kv ...any) { Default.Debug(ctx, msg, kv...) }
