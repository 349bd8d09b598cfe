// Package transport builds the gRPC connections used by the SDK.
package transport

import (
	"context"
	"fmt"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials/insecure"
	"google.golang.org/grpc/keepalive"
	"google.golang.org/grpc/metadata"
)

// Options tune the connections built by this package.
type Options struct {
	UserAgent string
	// DefaultTimeout is applied by DialWithDefaults to unary calls made
	// without a deadline.
	DefaultTimeout time.Duration
}

func baseDialOptions(o Options) []grpc.DialOption {
	return []grpc.DialOption{
		grpc.WithTransportCredentials(insecure.NewCredentials()),
		grpc.WithUserAgent(o.UserAgent),
		grpc.WithKeepaliveParams(keepalive.ClientParameters{
			Time:                30 * time.Second,
			Timeout:             10 * time.Second,
			PermitWithoutStream: false,
		}),
	}
}

// DialWithDefaults returns a connection whose unary calls get
// o.DefaultTimeout when the caller did not set a deadline.
func DialWithDefaults(target string, o Options, extra ...grpc.DialOption) (*grpc.ClientConn, error) {
	if o.DefaultTimeout <= 0 {
		return nil, fmt.Errorf("transport: dial %s: DefaultTimeout must be positive", target)
	}
	opts := append(baseDialOptions(o),
		grpc.WithChainUnaryInterceptor(DefaultDeadline(o.DefaultTimeout), callerTag(o.UserAgent)),
	)
	opts = append(opts, extra...)
	cc, err := grpc.NewClient(target, opts...)
	if err != nil {
		return nil, fmt.Errorf("transport: dial %s: %w", target, err)
	}
	return cc, nil
}

// Dial returns a plain connection: callers are responsible for deadlines.
func Dial(target string, o Options, extra ...grpc.DialOption) (*grpc.ClientConn, error) {
	opts := append(baseDialOptions(o),
		grpc.WithChainUnaryInterceptor(callerTag(o.UserAgent)),
	)
	opts = append(opts, extra...)
	cc, err := grpc.NewClient(target, opts...)
	if err != nil {
		return nil, fmt.Errorf("transport: dial %s: %w", target, err)
	}
	return cc, nil
}

// DefaultDeadline sets a deadline of d on unary calls that arrive without one.
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

func callerTag(agent string) grpc.UnaryClientInterceptor {
	return func(ctx context.Context, method string, req, reply any, cc *grpc.ClientConn, invoker grpc.UnaryInvoker, opts ...grpc.CallOption) error {
		if agent != "" {
			ctx = metadata.AppendToOutgoingContext(ctx, "x-caller", agent)
		}
		return invoker(ctx, method, req, reply, cc, opts...)
	}
}
