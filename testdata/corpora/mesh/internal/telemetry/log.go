package telemetry

import (
	"context"
	"fmt"
	"io"
	"os"
	"strings"
	"sync"
	"sync/atomic"
	"time"
)

// Level is a log level.
type Level int32

const (
	LevelDebug Level = iota
	LevelInfo
	LevelWarn
	LevelError
)

// ParseLevel parses a level name.
func ParseLevel(s string) (Level, error) {
	switch strings.ToLower(s) {
	case "debug":
		return LevelDebug, nil
	case "info":
		return LevelInfo, nil
	case "warn":
		return LevelWarn, nil
	case "error":
		return LevelError, nil
	}
	return 0, fmt.Errorf("unknown level %q", s)
}

// Logger writes one line per event, tagged with the trace in the ctx it is given.
type Logger struct {
	mu        sync.Mutex
	out       io.Writer
	component string
	level     atomic.Int32
}

// NewLogger returns a logger for a component.
func NewLogger(component string) *Logger {
	l := &Logger{out: os.Stderr, component: component}
	l.level.Store(int32(LevelInfo))
	return l
}

// SetLevel changes the level at run time.
func (l *Logger) SetLevel(lv Level) { l.level.Store(int32(lv)) }

func (l *Logger) log(ctx context.Context, lv Level, msg string, kv ...any) {
	if Level(l.level.Load()) > lv {
		return
	}
	var b strings.Builder
	fmt.Fprintf(&b, "%s %s %s", time.Now().UTC().Format(time.RFC3339Nano), l.component, msg)
	if id := TraceID(ctx); id != "" {
		fmt.Fprintf(&b, " trace=%s", id)
	}
	for i := 0; i+1 < len(kv); i += 2 {
		fmt.Fprintf(&b, " %v=%v", kv[i], kv[i+1])
	}
	b.WriteByte('\n')
	l.mu.Lock()
	defer l.mu.Unlock()
	_, _ = io.WriteString(l.out, b.String())
}

// Debug logs at debug level.
func (l *Logger) Debug(ctx context.Context, msg string, kv ...any) {
	l.log(ctx, LevelDebug, msg, kv...)
}

// Info logs at info level.
func (l *Logger) Info(ctx context.Context, msg string, kv ...any) { l.log(ctx, LevelInfo, msg, kv...) }

// Warn logs at warn level.
func (l *Logger) Warn(ctx context.Context, msg string, kv ...any) { l.log(ctx, LevelWarn, msg, kv...) }

// Error logs at error level.
func (l *Logger) Error(ctx context.Context, msg string, kv ...any) {
	l.log(ctx, LevelError, msg, kv...)
}
