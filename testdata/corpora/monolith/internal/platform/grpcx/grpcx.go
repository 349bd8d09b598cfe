// Package grpcx holds the dial options shared by internal gRPC clients.
package grpcx

import (
	"context"

	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials/insecure"
	"google.golang.org/grpc/metadata"
)

// Dial returns a client conn to an internal service. Internal traffic runs on the mesh, so the
// transport is plaintext; every call is tagged with the caller's name.
func Dial(target, caller string, opts ...grpc.DialOption) (*grpc.ClientConn, error) {
	base := []grpc.DialOption{
		grpc.WithTransportCredentials(insecure.NewCredentials()),
		grpc.WithUnaryInterceptor(tagCaller(caller)),
		grpc.WithStreamInterceptor(tagCallerStream(caller)),
	}
	return grpc.NewClient(target, append(base, opts...)...)
}

func tagCaller(name string) grpc.UnaryClientInterceptor {
	return func(ctx context.Context, method string, req, reply any, cc *grpc.ClientConn, invoker grpc.UnaryInvoker, opts ...grpc.CallOption) error {
		ctx = metadata.AppendToOutgoingContext(ctx, "x-caller", name)
		return invoker(ctx, method, req, reply, cc, opts...)
	}
}

func tagCallerStream(name string) grpc.StreamClientInterceptor {
	return func(ctx context.Context, desc *grpc.StreamDesc, cc *grpc.ClientConn, method string, streamer grpc.Streamer, opts ...grpc.CallOption) (grpc.ClientStream, error) {
		ctx = metadata.AppendToOutgoingContext(ctx, "x-caller", name)
		return streamer(ctx, desc, cc, method, opts...)
	}
}
