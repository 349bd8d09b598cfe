package rpcx

import (
	"context"
	"sync"

	"google.golang.org/grpc/metadata"

	"example.test/controlplane/internal/telemetry"
)

var (
	processMu  sync.RWMutex
	processCtx context.Context
)

// SetProcessContext records the process's lifetime context; main calls it
// once, before serving.
func SetProcessContext(ctx context.Context) {
	processMu.Lock()
	processCtx = ctx
	processMu.Unlock()
}

// ProcessContext returns the process's lifetime context, cancelled on SIGTERM.
func ProcessContext() context.Context {
	processMu.RLock()
	defer processMu.RUnlock()
	return processCtx
}

// DetachedFromRequest returns a fresh context that carries the caller's
// metadata, request id and trace but not its deadline or cancellation: for
// follow-up work (event fan-out) that must complete even when the client has
// already gone away. Callers bound the work themselves.
func DetachedFromRequest(ctx context.Context) context.Context {
	out := context.Background()
	if md, ok := metadata.FromIncomingContext(ctx); ok {
		out = metadata.NewIncomingContext(out, md.Copy())
	}
	if id := telemetry.RequestID(ctx); id != "" {
		out = telemetry.WithRequestID(out, id)
	}
	return telemetry.CopyTraceContext(out, ctx)
}
