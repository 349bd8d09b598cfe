// Package transport is a company's shared dialing package: one of its dial helpers installs a
// unary interceptor that gives every call without a deadline a default one.
package transport

import (
	"context"
	"time"

	"example.com/gen/catalogpb"
	"google.golang.org/grpc"

	"google.golang.org/grpc/credentials/insecure"
	"missingdeadline/dialer/clientx"
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

// Dial returns a connection whose unary calls get a default deadline.
func Dial(target string) (*grpc.ClientConn, error) { // want Dial:"defaultingConn"
	cc, err := grpc.NewClient(target,
		grpc.WithTransportCredentials(insecure.NewCredentials()),
		grpc.WithUnaryInterceptor(DefaultDeadline(5*time.Second)),
	)
	if err != nil {
		return nil, err
	}
	return cc, nil
}

// Catalog returns a catalog client on a connection from Dial.
func Catalog(target string) (catalogpb.CatalogClient, error) { // want Catalog:"defaultingConn"
	cc, err := Dial(target)
	if err != nil {
		return nil, err
	}
	return catalogpb.NewCatalogClient(cc), nil
}

// Plain returns a connection with no default: its callers set deadlines themselves.
func Plain(target string) (*grpc.ClientConn, error) {
	return grpc.NewClient(target, grpc.WithTransportCredentials(insecure.NewCredentials()))
}

// Either returns a defaulting connection only when asked to.
func Either(target string, defaults bool) (*grpc.ClientConn, error) {
	if defaults {
		return Dial(target)
	}
	return Plain(target)
}

// Chained uses the interceptors of another package: clientx's default.
func Chained(target string) (*grpc.ClientConn, error) { // want Chained:"defaultingConn"
	return grpc.NewClient(target,
		grpc.WithTransportCredentials(insecure.NewCredentials()),
		grpc.WithChainUnaryInterceptor(clientx.Tagging(), clientx.DefaultDeadline(time.Second)),
	)
}

// Bounded uses clientx's always-bounding interceptor function.
func Bounded(target string) (*grpc.ClientConn, error) { // want Bounded:"defaultingConn"
	return grpc.NewClient(target, grpc.WithUnaryInterceptor(clientx.Bounded))
}

// Tagged tags calls and bounds none.
func Tagged(target string) (*grpc.ClientConn, error) {
	return grpc.NewClient(target, grpc.WithUnaryInterceptor(clientx.Tagging()))
}
