package connectsvc

import (
	"context"

	"connectrpc.com/connect"
	v1 "example.com/gen/greetv1"
)

// Mapped hands its store's error to a mapping helper that makes every error Internal: reported
// in the helper, told to keep a context error's connect code.
type Mapped struct{ Greeter }

func (m *Mapped) Greet(ctx context.Context, req *connect.Request[v1.GreetRequest]) (*connect.Response[v1.GreetResponse], error) {
	name, err := m.store.Name(ctx, req.Msg.Name)
	if err != nil {
		return nil, internal(err)
	}
	return connect.NewResponse(&v1.GreetResponse{Greeting: "hello " + name}), nil
}

func internal(err error) error {
	return connect.NewError(connect.CodeInternal, err) // want `connect\.NewError gives code connect\.CodeInternal to err, which Mapped\.Greet hands it from the error of store\.Name and may be the request's deadline or cancellation; keep a context error's code \(connect\.CodeDeadlineExceeded or connect\.CodeCanceled\)$`
}
