// Package connectshape serves a connect-go service whose generated handler interface it never
// imports: main registers it (greetconnect.NewGreetServiceHandler(&Admin{})). Its handlers are
// known by their shapes.
package connectshape

import (
	"context"

	"connectrpc.com/connect"
	"example.com/gen/greetv1"
)

type Admin struct {
	base
}

func (a *Admin) Greet(ctx context.Context, req *connect.Request[greetv1.GreetRequest]) (*connect.Response[greetv1.GreetResponse], error) { // want `connect Admin.Greet ctx=ctx recv=a`
	return nil, nil
}

func (a *Admin) Upload(ctx context.Context, s *connect.ClientStream[greetv1.GreetRequest]) (*connect.Response[greetv1.GreetResponse], error) { // want `connect Admin.Upload ctx=ctx recv=a`
	return nil, nil
}

func (a Admin) Watch(ctx context.Context, req *connect.Request[greetv1.GreetRequest], s *connect.ServerStream[greetv1.GreetResponse]) error { // want `connect Admin.Watch ctx=ctx recv=a`
	return nil
}

func (a *Admin) Chat(ctx context.Context, s *connect.BidiStream[greetv1.GreetRequest, greetv1.GreetResponse]) error { // want `connect Admin.Chat ctx=ctx recv=a`
	return nil
}

// Not a handler's shape: no response, or a ctx the handler is not given first.
func (a *Admin) Notify(ctx context.Context, req *connect.Request[greetv1.GreetRequest]) error {
	return nil
}

func (a *Admin) Later(req *connect.Request[greetv1.GreetRequest], ctx context.Context) (*connect.Response[greetv1.GreetResponse], error) {
	return nil, nil
}

// Unexported: no service method.
func (a *Admin) greet(ctx context.Context, req *connect.Request[greetv1.GreetRequest]) (*connect.Response[greetv1.GreetResponse], error) {
	return nil, nil
}

type base struct{}

// Promoted from a type of the package into Admin: this package's code, serving Admin's method.
func (base) Ping(ctx context.Context, req *connect.Request[greetv1.GreetRequest]) (*connect.Response[greetv1.GreetResponse], error) { // want `connect base.Ping ctx=ctx`
	return nil, nil
}

// A function of the shape is no method of a service.
func Greet(ctx context.Context, req *connect.Request[greetv1.GreetRequest]) (*connect.Response[greetv1.GreetResponse], error) {
	return nil, nil
}

// remote is a greeter the package calls. A method with the signature of a method of an
// interface in sight may be a client passing calls on, not a handler: Wrapper.Hello is no
// scope, nor is an interface's method.
type remote interface {
	Hello(ctx context.Context, req *connect.Request[greetv1.GreetResponse]) (*connect.Response[greetv1.GreetRequest], error)
}

type Wrapper struct{ r remote }

func (w *Wrapper) Hello(ctx context.Context, req *connect.Request[greetv1.GreetResponse]) (*connect.Response[greetv1.GreetRequest], error) {
	return w.r.Hello(ctx, req)
}

// A stream is served, never called so: a stream method is a handler whatever is in sight.
type streams interface {
	Chat(ctx context.Context, s *connect.BidiStream[greetv1.GreetRequest, greetv1.GreetResponse]) error
}

type Relay struct{ next streams }

func (r *Relay) Chat(ctx context.Context, s *connect.BidiStream[greetv1.GreetRequest, greetv1.GreetResponse]) error { // want `connect Relay.Chat ctx=ctx recv=r`
	return r.next.Chat(ctx, s)
}

// Typed is a client built on connect.Client: its unary method has a handler's signature, and it
// is no scope. Held behind an interface from out of sight, the same.
type Typed struct {
	greet *connect.Client[greetv1.GreetRequest, greetv1.GreetResponse]
}

func (c *Typed) Greet(ctx context.Context, req *connect.Request[greetv1.GreetRequest]) (*connect.Response[greetv1.GreetResponse], error) {
	return c.greet.CallUnary(ctx, req)
}

type Held struct {
	next interface {
		Greet(context.Context, *connect.Request[greetv1.GreetRequest]) (*connect.Response[greetv1.GreetResponse], error)
	}
}

func (h Held) Greet(ctx context.Context, req *connect.Request[greetv1.GreetRequest]) (*connect.Response[greetv1.GreetResponse], error) {
	return h.next.Greet(ctx, req)
}
