package server

import (
	"context"
	"time"

	"google.golang.org/grpc"
)

// DefaultDeadline returns a unary server interceptor that gives a request
// arriving with no deadline the budget d, so that no handler runs unbounded.
// A deadline set by the caller is kept as it is.
func DefaultDeadline(d time.Duration) grpc.UnaryServerInterceptor {
	return func(ctx context.Context, req any, _ *grpc.UnaryServerInfo, handler grpc.UnaryHandler) (any, error) {
		if _, ok := ctx.Deadline(); ok {
			return handler(ctx, req)
		}
		ctx, cancel := context.WithTimeout(ctx, d)
		defer cancel()
		return handler(ctx, req)
	}
}
