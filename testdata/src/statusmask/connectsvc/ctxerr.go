package connectsvc

import (
	"context"

	"connectrpc.com/connect"
	v1 "example.com/gen/greetv1"
)

// Quiet gives the request ctx's error connect's Unavailable: reported, told to keep its code.
type Quiet struct{ Greeter }

func (q *Quiet) Greet(ctx context.Context, req *connect.Request[v1.GreetRequest]) (*connect.Response[v1.GreetResponse], error) {
	if err := ctx.Err(); err != nil {
		return nil, connect.NewError(connect.CodeUnavailable, err) // want `connect\.NewError gives code connect\.CodeUnavailable to the request ctx's error, which is its deadline or cancellation; keep its code: connect\.CodeDeadlineExceeded or connect\.CodeCanceled$`
	}
	return connect.NewResponse(&v1.GreetResponse{Greeting: "hello"}), nil
}
