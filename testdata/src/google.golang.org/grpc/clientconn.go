package grpc

import (
	"context"
	"time"

	"google.golang.org/grpc/credentials"
)

// ClientConnInterface defines the functions clients need to perform unary
// and streaming RPCs.
type ClientConnInterface interface {
	// Invoke performs a unary RPC and returns after the response is received
	// into reply.
	Invoke(ctx context.Context, method string, args any, reply any, opts ...CallOption) error
	// NewStream begins a streaming RPC.
	NewStream(ctx context.Context, desc *StreamDesc, method string, opts ...CallOption) (ClientStream, error)
}

// Assert *ClientConn implements ClientConnInterface.
var _ ClientConnInterface = (*ClientConn)(nil)

// ClientConn represents a virtual connection to a conceptual endpoint.
type ClientConn struct {
	target string
}

// NewClient creates a new gRPC "channel" for the target URI provided.
func NewClient(target string, opts ...DialOption) (conn *ClientConn, err error) {
	return &ClientConn{target: target}, nil
}

// Dial calls DialContext(context.Background(), target, opts...).
//
// Deprecated: use NewClient instead.
func Dial(target string, opts ...DialOption) (*ClientConn, error) {
	return DialContext(context.Background(), target, opts...)
}

// DialContext calls NewClient and then exits idle mode.
//
// Deprecated: use NewClient instead.
func DialContext(ctx context.Context, target string, opts ...DialOption) (conn *ClientConn, err error) {
	if err := ctx.Err(); err != nil { // the ctx bounds the dial
		return nil, err
	}
	return NewClient(target, opts...)
}

// Invoke sends the RPC request on the wire and returns after response is
// received.
func (cc *ClientConn) Invoke(ctx context.Context, method string, args, reply any, opts ...CallOption) error {
	return nil
}

// NewStream creates a new Stream for the client side.
func (cc *ClientConn) NewStream(ctx context.Context, desc *StreamDesc, method string, opts ...CallOption) (ClientStream, error) {
	return nil, nil
}

// Close tears down the ClientConn and all underlying connections.
func (cc *ClientConn) Close() error { return nil }

// Target returns the target string of the ClientConn.
func (cc *ClientConn) Target() string { return cc.target }

// Connect causes all subchannels in the ClientConn to attempt to connect if
// the channel is idle.
func (cc *ClientConn) Connect() {}

// DialOption configures how we set up the connection.
type DialOption interface {
	apply(*dialOptions)
}

type dialOptions struct{}

type funcDialOption struct{ f func(*dialOptions) }

func (fdo *funcDialOption) apply(do *dialOptions) { fdo.f(do) }

func newFuncDialOption(f func(*dialOptions)) *funcDialOption {
	return &funcDialOption{f: f}
}

func nopDialOption() DialOption { return newFuncDialOption(func(*dialOptions) {}) }

// WithUnaryInterceptor returns a DialOption that specifies the interceptor
// for unary RPCs.
func WithUnaryInterceptor(f UnaryClientInterceptor) DialOption { return nopDialOption() }

// WithChainUnaryInterceptor returns a DialOption that specifies the chained
// interceptor for unary RPCs.
func WithChainUnaryInterceptor(interceptors ...UnaryClientInterceptor) DialOption {
	return nopDialOption()
}

// WithStreamInterceptor returns a DialOption that specifies the interceptor
// for streaming RPCs.
func WithStreamInterceptor(f StreamClientInterceptor) DialOption { return nopDialOption() }

// WithChainStreamInterceptor returns a DialOption that specifies the chained
// interceptor for streaming RPCs.
func WithChainStreamInterceptor(interceptors ...StreamClientInterceptor) DialOption {
	return nopDialOption()
}

// WithTransportCredentials returns a DialOption which configures a connection
// level security credentials (e.g., TLS/SSL).
func WithTransportCredentials(creds credentials.TransportCredentials) DialOption {
	return nopDialOption()
}

// WithDefaultCallOptions returns a DialOption which sets the default
// CallOptions for calls over the connection.
func WithDefaultCallOptions(cos ...CallOption) DialOption { return nopDialOption() }

// WithBlock returns a DialOption which makes callers of Dial block until the
// underlying connection is up.
//
// Deprecated: this DialOption is not supported by NewClient.
func WithBlock() DialOption { return nopDialOption() }

// WithTimeout returns a DialOption that configures a timeout for dialing a
// ClientConn initially.
//
// Deprecated: use DialContext instead of Dial and context.WithTimeout instead.
func WithTimeout(d time.Duration) DialOption { return nopDialOption() }

// WithIdleTimeout returns a DialOption that configures an idle timeout for
// the channel.
func WithIdleTimeout(d time.Duration) DialOption { return nopDialOption() }
