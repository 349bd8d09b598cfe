// Package connectsvc holds connect-go handlers, interceptors and marked scopes.
package connectsvc

import (
	"context"

	"connectrpc.com/connect"
	"example.com/gen/greetconnect"
	"example.com/gen/greetv1"
	"google.golang.org/grpc"
)

func lookup(ctx context.Context, name string) (string, error) { return name, ctx.Err() }

type Greeter struct {
	greetconnect.UnimplementedGreetServiceHandler
}

var _ greetconnect.GreetServiceHandler = (*Greeter)(nil)

func (g *Greeter) Greet(ctx context.Context, req *connect.Request[greetv1.GreetRequest]) (*connect.Response[greetv1.GreetResponse], error) {
	name, err := lookup(context.Background(), req.Msg.Name) // want `context.Background\(\) in handler Greeter.Greet`
	if err != nil {
		return nil, err
	}
	return connect.NewResponse(&greetv1.GreetResponse{Greeting: "hello " + name}), nil
}

func (g *Greeter) GreetStream(ctx context.Context, req *connect.Request[greetv1.GreetRequest], stream *connect.ServerStream[greetv1.GreetResponse]) error {
	name, err := lookup(ctx, req.Msg.Name)
	if err != nil {
		return err
	}
	return stream.Send(&greetv1.GreetResponse{Greeting: name})
}

// authUnary is a grpc-go unary server interceptor.
func authUnary(ctx context.Context, req any, info *grpc.UnaryServerInfo, handler grpc.UnaryHandler) (any, error) {
	if _, err := lookup(context.TODO(), info.FullMethod); err != nil { // want `context.TODO\(\) in interceptor authUnary`
		return nil, err
	}
	return handler(ctx, req)
}

// newStreamInterceptor returns an interceptor literal; the constructor itself is not a scope.
func newStreamInterceptor() grpc.StreamServerInterceptor { // want newStreamInterceptor:"drops ctx"
	_, _ = lookup(context.Background(), "init")
	return func(srv any, ss grpc.ServerStream, info *grpc.StreamServerInfo, handler grpc.StreamHandler) error {
		if _, err := lookup(context.Background(), info.FullMethod); err != nil { // want `context.Background\(\) in interceptor .*pass ss.Context\(\)`
			return err
		}
		return handler(srv, ss)
	}
}

// consume is a queue consumer marked as a request scope.
//
//deadlinelint:scope
func consume(ctx context.Context, msg string) error {
	_, err := lookup(context.Background(), msg) // want `context.Background\(\) in request scope consume`
	return err
}

// notMarked is an ordinary function.
func notMarked(ctx context.Context, msg string) error { // want notMarked:"drops ctx"
	_, err := lookup(context.Background(), msg)
	return err
}
