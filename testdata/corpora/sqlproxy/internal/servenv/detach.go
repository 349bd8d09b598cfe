package servenv

import (
	"context"

	"google.golang.org/grpc/metadata"
)

// DetachedContext returns a context that carries the caller's trace id and
// incoming metadata but none of its deadline or cancellation. Audit rows and
// compensating writes use it: they must be written even after the client
// that caused them has gone away.
func DetachedContext(ctx context.Context) context.Context {
	out := context.Background()
	if md, ok := metadata.FromIncomingContext(ctx); ok {
		out = metadata.NewIncomingContext(out, md)
	}
	return WithTraceID(out, TraceID(ctx))
}
