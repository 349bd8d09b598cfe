// Package clientx holds gRPC client options shared by our binaries.
package clientx

import (
	"context"
	"time"

	"google.golang.org/grpc"
)

// DefaultDeadline is a unary client interceptor that gives every call
// without a deadline one of d.
func DefaultDeadline(d time.Duration) grpc.UnaryClientInterceptor {
	return func(ctx context.Context, method string, req, reply any, cc *grpc.ClientConn, invoker grpc.UnaryInvoker, opts ...grpc.CallOption) error {
		if _, ok := ctx.Deadline(); !ok {
			var cancel context.CancelFunc
			ctx, cancel = context.WithTimeout(ctx, d)
			defer cancel()
		}
		return invoker(ctx, method, req, reply, cc, opts...)
	}
}

// Dial connects to target with our defaults: a 5s default deadline.
func Dial(target string) (*grpc.ClientConn, error) {
	return grpc.NewClient(target,
		grpc.WithUnaryInterceptor(DefaultDeadline(5*time.Second)),
	)
}
