// Package clientx holds client interceptors that other packages chain into their connections.
package clientx

import (
	"context"
	"time"

	"google.golang.org/grpc"
)

// DefaultDeadline bounds unary calls that arrive without a deadline.
func DefaultDeadline(d time.Duration) grpc.UnaryClientInterceptor { // want DefaultDeadline:"defaultingInterceptor"
	return func(ctx context.Context, method string, req, reply any, cc *grpc.ClientConn, invoker grpc.UnaryInvoker, opts ...grpc.CallOption) error {
		if _, ok := ctx.Deadline(); !ok {
			var cancel context.CancelFunc
			ctx, cancel = context.WithTimeout(ctx, d)
			defer cancel()
		}
		return invoker(ctx, method, req, reply, cc, opts...)
	}
}

// Bounded always applies a one-second budget.
func Bounded(ctx context.Context, method string, req, reply any, cc *grpc.ClientConn, invoker grpc.UnaryInvoker, opts ...grpc.CallOption) error { // want Bounded:"defaultingInterceptor"
	ctx, cancel := context.WithTimeout(ctx, time.Second)
	defer cancel()
	return invoker(ctx, method, req, reply, cc, opts...)
}

// Tagging adds metadata and no deadline.
func Tagging() grpc.UnaryClientInterceptor {
	return func(ctx context.Context, method string, req, reply any, cc *grpc.ClientConn, invoker grpc.UnaryInvoker, opts ...grpc.CallOption) error {
		return invoker(ctx, method, req, reply, cc, opts...)
	}
}
