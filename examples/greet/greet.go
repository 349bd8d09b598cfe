// Package greet implements greet.v1.GreetService with connect-go: it
// greets people and remembers how often they came.
package greet

import (
	"context"
	"fmt"

	"connectrpc.com/connect"

	"github.com/deadlinelint/deadlinelint/examples/greet/greetv1"
	"github.com/deadlinelint/deadlinelint/examples/greet/greetv1/greetv1connect"
)

// Visits counts visits per name.
type Visits interface {
	// Record counts one more visit of name and returns the total.
	Record(ctx context.Context, name string) (int64, error)
	// Forget drops every visit of name.
	Forget(ctx context.Context, name string) error
}

// Server is the greet service.
type Server struct {
	visits Visits
}

var _ greetv1connect.GreetServiceHandler = (*Server)(nil)

// NewServer returns a Server that counts visits in v.
func NewServer(v Visits) *Server {
	return &Server{visits: v}
}

// Greet greets the caller by name and tells how often they came.
func (s *Server) Greet(ctx context.Context, req *connect.Request[greetv1.GreetRequest]) (*connect.Response[greetv1.GreetResponse], error) {
	name := req.Msg.GetName()
	if name == "" {
		return nil, connect.NewError(connect.CodeInvalidArgument, fmt.Errorf("name is required"))
	}
	n, err := s.visits.Record(ctx, name)
	if err != nil {
		return nil, err
	}
	return connect.NewResponse(&greetv1.GreetResponse{
		Greeting: "Hello, " + name + "!",
		Visits:   n,
	}), nil
}

// Farewell says goodbye and forgets the caller's visits.
func (s *Server) Farewell(ctx context.Context, req *connect.Request[greetv1.FarewellRequest]) (*connect.Response[greetv1.FarewellResponse], error) {
	name := req.Msg.GetName()
	if err := s.visits.Forget(context.Background(), name); err != nil { // planted: ctxbackground
		return nil, err
	}
	return connect.NewResponse(&greetv1.FarewellResponse{Farewell: "Goodbye, " + name + "."}), nil
}
