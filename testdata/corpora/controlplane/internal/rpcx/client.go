package rpcx

import (
	"context"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials/insecure"
)

// DefaultDeadline gives every unary call that arrives without a deadline one of d.
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

// NewClientConn returns a connection on which every unary call has at least
// a 15s deadline.
func NewClientConn(target string, opts ...grpc.DialOption) (*grpc.ClientConn, error) {
	opts = append([]grpc.DialOption{
		grpc.WithTransportCredentials(insecure.NewCredentials()),
		grpc.WithChainUnaryInterceptor(DefaultDeadline(15 * time.Second)),
	}, opts...)
	return grpc.NewClient(target, opts...)
}

// Dial connects to target, blocking until the connection is up or ctx is done.
func Dial(ctx context.Context, target string) (*grpc.ClientConn, error) {
	//nolint:staticcheck // blocking dial is what the plugin loader wants.
	return grpc.DialContext(ctx, target,
		grpc.WithTransportCredentials(insecure.NewCredentials()),
		grpc.WithBlock(),
	)
}

// CallContext returns the context for one outgoing call: bounded by timeout
// when one is set, unbounded otherwise.
func CallContext(timeout time.Duration) (context.Context, context.CancelFunc) {
	if timeout > 0 {
		return context.WithTimeout(context.Background(), timeout)
	}
	return context.WithCancel(context.Background())
}
