// Package obs holds the cache's own logging, metrics and tracing helpers.
package obs

import (
	"context"
	"fmt"
	"io"
	"os"
	"sync"
	"time"
)

// Logger writes one line per event, tagged with the trace carried by ctx.
type Logger struct {
	mu    sync.Mutex
	w     io.Writer
	debug bool
}

// Log is the process-wide logger.
var Log = &Logger{w: os.Stderr}

// SetDebug turns debug lines on or off.
func (l *Logger) SetDebug(on bool) { l.mu.Lock(); l.debug = on; l.mu.Unlock() }

// Info logs msg with the trace id of ctx.
func (l *Logger) Info(ctx context.Context, msg string, kv ...any) { l.write(ctx, "INFO", msg, kv) }

// Error logs msg at error level.
func (l *Logger) Error(ctx context.Context, msg string, kv ...any) { l.write(ctx, "ERROR", msg, kv) }

// Debug logs without a trace.
func (l *Logger) Debug(msg string, kv ...any) { l.DebugContext(context.Background(), msg, kv...) }

// DebugContext logs at debug level with the trace id of ctx.
func (l *Logger) DebugContext(ctx context.Context, msg string, kv ...any) {
	if l.debug {
		l.write(ctx, "DEBUG", msg, kv)
	}
}

func (l *Logger) write(ctx context.Context, level, msg string, kv []any) {
	l.mu.Lock()
	defer l.mu.Unlock()
	fmt.Fprintf(l.w, "%s %s trace=%s %s %v\n", time.Now().Format(time.RFC3339), level, TraceID(ctx), msg, kv)
}
