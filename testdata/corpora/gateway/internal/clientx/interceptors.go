// Package clientx holds the client interceptors the gateway installs on its
// outbound gRPC connections.
package clientx

import (
	"context"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/grpc/metadata"
)

type requestIDKey struct{}

// WithRequestID marks ctx so that outbound calls carry id as x-request-id.
func WithRequestID(ctx context.Context, id string) context.Context {
	return context.WithValue(ctx, requestIDKey{}, id)
}

// DefaultDeadline gives calls made without a deadline one of d. Calls that
// already have a deadline keep it.
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

// PropagateRequestID copies the request id marked on ctx into the outgoing metadata.
func PropagateRequestID() grpc.UnaryClientInterceptor {
	return func(ctx context.Context, method string, req, reply any, cc *grpc.ClientConn, invoker grpc.UnaryInvoker, opts ...grpc.CallOption) error {
		if id, ok := ctx.Value(requestIDKey{}).(string); ok && id != "" {
			ctx = metadata.AppendToOutgoingContext(ctx, "x-request-id", id)
		}
		return invoker(ctx, method, req, reply, cc, opts...)
	}
}

// StreamPropagateRequestID is PropagateRequestID for streams.
func StreamPropagateRequestID() grpc.StreamClientInterceptor {
	return func(ctx context.Context, desc *grpc.StreamDesc, cc *grpc.ClientConn, method string, streamer grpc.Streamer, opts ...grpc.CallOption) (grpc.ClientStream, error) {
		if id, ok := ctx.Value(requestIDKey{}).(string); ok && id != "" {
			ctx = metadata.AppendToOutgoingContext(ctx, "x-request-id", id)
		}
		return streamer(ctx, desc, cc, method, opts...)
	}
}

// Retry retries idempotent unary calls that failed with Unavailable, within the
// call's own deadline.
func Retry(attempts int, backoff time.Duration, idempotent func(method string) bool) grpc.UnaryClientInterceptor {
	return func(ctx context.Context, method string, req, reply any, cc *grpc.ClientConn, invoker grpc.UnaryInvoker, opts ...grpc.CallOption) error {
		var err error
		for i := 0; i < attempts; i++ {
			if err = invoker(ctx, method, req, reply, cc, opts...); err == nil || !idempotent(method) || !unavailable(err) {
				return err
			}
			select {
			case <-ctx.Done():
				return err
			case <-time.After(backoff << i):
			}
		}
		return err
	}
}
