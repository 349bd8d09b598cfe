// Package connectsvc is a connect-go service translating its downstream errors.
package connectsvc

import (
	"context"
	"fmt"

	"connectrpc.com/connect"
	"example.com/gen/greetconnect"
	v1 "example.com/gen/greetv1"
)

var _ greetconnect.GreetServiceHandler = (*Greeter)(nil)

type store interface {
	Name(ctx context.Context, id string) (string, error)
}

type Greeter struct{ store store }

func (g *Greeter) Greet(ctx context.Context, req *connect.Request[v1.GreetRequest]) (*connect.Response[v1.GreetResponse], error) {
	name, err := g.store.Name(ctx, req.Msg.Name)
	if err != nil {
		return nil, connect.NewError(connect.CodeInternal, fmt.Errorf("store: %w", err)) // want `connect\.NewError gives code connect\.CodeInternal to the error of store\.Name`
	}
	return connect.NewResponse(&v1.GreetResponse{Greeting: "hello " + name}), nil
}

func (g *Greeter) GreetStream(ctx context.Context, req *connect.Request[v1.GreetRequest], stream *connect.ServerStream[v1.GreetResponse]) error {
	name, err := g.store.Name(ctx, req.Msg.Name)
	if err != nil {
		return connect.NewError(connect.CodeOf(err), err) // the code is the error's: silent
	}
	return stream.Send(&v1.GreetResponse{Greeting: name})
}
