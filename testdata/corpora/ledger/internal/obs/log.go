// Package obs holds the small logging and metrics helpers shared by the
// ledger binaries.
package obs

import (
	"context"
	"log/slog"
	"os"
	"sync"
)

type ctxKey struct{}

var defaultLogger = sync.OnceValue(func() *slog.Logger {
	return slog.New(slog.NewJSONHandler(os.Stderr, &slog.HandlerOptions{Level: slog.LevelInfo}))
})

// WithRequestID returns a ctx carrying the request id for log correlation.
func WithRequestID(ctx context.Context, id string) context.Context {
	return context.WithValue(ctx, ctxKey{}, id)
}

// RequestID returns the request id stored in ctx, or "".
func RequestID(ctx context.Context) string {
	id, _ := ctx.Value(ctxKey{}).(string)
	return id
}

// L returns a logger annotated with the request id in ctx, if any.
func L(ctx context.Context) *slog.Logger {
	l := defaultLogger()
	if id := RequestID(ctx); id != "" {
		return l.With("request_id", id)
	}
	return l
}
