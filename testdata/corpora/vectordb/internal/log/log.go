// Package log is the cluster's structured logger. Every entry point takes a
// ctx only to attach the request's trace id to the line.
package log

import (
	"context"
	"fmt"
	"io"
	"os"
	"strings"
	"sync"
	"time"
)

// Level of a log line.
type Level int

const (
	DebugLevel Level = iota
	InfoLevel
	WarnLevel
	ErrorLevel
)

func (l Level) String() string {
	switch l {
	case DebugLevel:
		return "DEBUG"
	case InfoLevel:
		return "INFO"
	case WarnLevel:
		return "WARN"
	default:
		return "ERROR"
	}
}

// Field is one key/value pair of a log line.
type Field struct {
	Key string
	Val any
}

func String(k, v string) Field      { return Field{k, v} }
func Int64(k string, v int64) Field { return Field{k, v} }
func Int(k string, v int) Field     { return Field{k, v} }
func Any(k string, v any) Field     { return Field{k, v} }
func Duration(k string, d time.Duration) Field {
	return Field{k, d.String()}
}

// Err attaches an error to the line.
func Err(err error) Field { return Field{"error", err} }

// Logger writes structured lines.
type Logger struct {
	mu     *sync.Mutex
	w      io.Writer
	min    Level
	fields []Field
}

var std = &Logger{mu: new(sync.Mutex), w: os.Stderr, min: InfoLevel}

// L returns the process logger.
func L() *Logger { return std }

// SetLevel changes the minimum level of the process logger.
func SetLevel(l Level) { std.mu.Lock(); std.min = l; std.mu.Unlock() }

// With returns a logger that adds fs to every line.
func (l *Logger) With(fs ...Field) *Logger {
	nl := *l
	nl.fields = append(append([]Field(nil), l.fields...), fs...)
	return &nl
}

func (l *Logger) write(lv Level, msg string, fs []Field) {
	if lv < l.min {
		return
	}
	var b strings.Builder
	fmt.Fprintf(&b, "%s %-5s %s", time.Now().UTC().Format(time.RFC3339Nano), lv, msg)
	for _, f := range l.fields {
		fmt.Fprintf(&b, " %s=%v", f.Key, f.Val)
	}
	for _, f := range fs {
		fmt.Fprintf(&b, " %s=%v", f.Key, f.Val)
	}
	b.WriteByte('\n')
	l.mu.Lock()
	_, _ = io.WriteString(l.w, b.String())
	l.mu.Unlock()
}

func (l *Logger) Debug(msg string, fs ...Field) { l.write(DebugLevel, msg, fs) }
func (l *Logger) Info(msg string, fs ...Field)  { l.write(InfoLevel, msg, fs) }
func (l *Logger) Warn(msg string, fs ...Field)  { l.write(WarnLevel, msg, fs) }
func (l *Logger) Error(msg string, fs ...Field) { l.write(ErrorLevel, msg, fs) }

// WarnContext is Warn with the trace id of ctx attached.
func (l *Logger) WarnContext(ctx context.Context, msg string, fs ...Field) {
	l.withTrace(ctx).Warn(msg, fs...)
}

// InfoContext is Info with the trace id of ctx attached.
func (l *Logger) InfoContext(ctx context.Context, msg string, fs ...Field) {
	l.withTrace(ctx).Info(msg, fs...)
}

func (l *Logger) withTrace(ctx context.Context) *Logger {
	if ctx == nil || ctx == context.Background() { // OK: ctxbackground — a comparison, no context is started
		return l
	}
	if id := TraceID(ctx); id != "" {
		return l.With(String("traceID", id))
	}
	return l
}

// Ctx returns the process logger with the trace id of ctx attached
// (log.Ctx(ctx).Info(...)).
func Ctx(ctx context.Context) *Logger { return std.withTrace(ctx) }

// Info logs at info level with the trace id of ctx (log.Info(ctx, ...)).
func Info(ctx context.Context, msg string, fs ...Field) { Ctx(ctx).Info(msg, fs...) }

// Warn logs at warn level with the trace id of ctx.
func Warn(ctx context.Context, msg string, fs ...Field) { Ctx(ctx).Warn(msg, fs...) }

// Error logs at error level with the trace id of ctx.
func Error(ctx context.Context, msg string, fs ...Field) { Ctx(ctx).Error(msg, fs...) }

// Debug logs at debug level with the trace id of ctx.
func Debug(ctx context.Context, msg string, fs ...Field) { Ctx(ctx).Debug(msg, fs...) }
