// Package deadlines sets default deadlines on gRPC calls that arrive or leave without one.
//
// A client call with no deadline waits for as long as the server and the network take; a server
// that receives no deadline runs every request for as long as its handler likes. The Go article
// deadlinelint is built from asks for both defaults: "a unary client interceptor that sets a
// default deadline when the context has none", and "a server-side interceptor can impose a
// default when none arrives". Both leave a deadline that is already there alone: a caller's
// shorter budget always wins, and a longer one is the caller's decision.
//
// deadlinelint's missingdeadline rule knows UnaryClientInterceptor: a connection built with it
// (grpc.WithUnaryInterceptor(deadlines.UnaryClientInterceptor(d)), or in a chain) has a deadline
// on every unary call, and its calls are not reported.
package deadlines

import (
	"context"
	"time"

	"google.golang.org/grpc"
)

// UnaryClientInterceptor returns a unary client interceptor that gives a call with no deadline
// one d from now; a call whose ctx has a deadline is sent as it is.
func UnaryClientInterceptor(d time.Duration) grpc.UnaryClientInterceptor {
	return func(ctx context.Context, method string, req, reply any, cc *grpc.ClientConn, invoker grpc.UnaryInvoker, opts ...grpc.CallOption) error {
		if _, ok := ctx.Deadline(); !ok {
			var cancel context.CancelFunc
			ctx, cancel = context.WithTimeout(ctx, d)
			defer cancel()
		}
		return invoker(ctx, method, req, reply, cc, opts...)
	}
}

// UnaryServerInterceptor returns a unary server interceptor that runs a request that arrived
// with no deadline as if its caller had allowed d; one with a deadline runs with it.
func UnaryServerInterceptor(d time.Duration) grpc.UnaryServerInterceptor {
	return func(ctx context.Context, req any, info *grpc.UnaryServerInfo, handler grpc.UnaryHandler) (any, error) {
		if _, ok := ctx.Deadline(); !ok {
			var cancel context.CancelFunc
			ctx, cancel = context.WithTimeout(ctx, d)
			defer cancel()
		}
		return handler(ctx, req)
	}
}

// StreamServerInterceptor returns a stream server interceptor that gives a stream that arrived
// with no deadline one d from its start. A total deadline suits short streams (a listing, an
// upload); a long-lived stream should arrive with no deadline and not be given this one.
func StreamServerInterceptor(d time.Duration) grpc.StreamServerInterceptor {
	return func(srv any, ss grpc.ServerStream, info *grpc.StreamServerInfo, handler grpc.StreamHandler) error {
		ctx := ss.Context()
		if _, ok := ctx.Deadline(); ok {
			return handler(srv, ss)
		}
		ctx, cancel := context.WithTimeout(ctx, d)
		defer cancel()
		return handler(srv, &stream{ServerStream: ss, ctx: ctx})
	}
}

// stream is a server stream whose Context is the one with the default deadline.
type stream struct {
	grpc.ServerStream
	ctx context.Context
}

// Context returns the stream's ctx, with the default deadline.
func (s *stream) Context() context.Context { return s.ctx }
