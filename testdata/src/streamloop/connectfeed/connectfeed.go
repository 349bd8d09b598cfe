// Package connectfeed is a connect-go streaming handler relaying events.
package connectfeed

import (
	"context"

	"connectrpc.com/connect"
	"example.com/gen/greetconnect"
	v1 "example.com/gen/greetv1"
)

var _ greetconnect.GreetServiceHandler = (*Greeter)(nil)

type Greeter struct{ names chan string }

func (g *Greeter) Greet(ctx context.Context, req *connect.Request[v1.GreetRequest]) (*connect.Response[v1.GreetResponse], error) {
	for name := range g.names { // a unary handler: not streamloop's
		return connect.NewResponse(&v1.GreetResponse{Greeting: name}), nil
	}
	return nil, nil
}

func (g *Greeter) GreetStream(ctx context.Context, req *connect.Request[v1.GreetRequest], stream *connect.ServerStream[v1.GreetResponse]) error {
	for name := range g.names { // want `loop in streaming handler Greeter\.GreetStream waits on a channel that outlives the request, and nothing in it stops when the client leaves; select on ctx\.Done\(\) too`
		stream.Send(&v1.GreetResponse{Greeting: name})
	}
	return nil
}
