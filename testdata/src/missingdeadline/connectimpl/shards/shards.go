// Package shards implements the greet service in the process, over local shards, with the
// method shape connect-go gives handlers and clients alike. Fanout and Local make no RPC;
// Forward hands its ctx to a generated client, Bounded gives the call a deadline first.
package shards

import (
	"context"
	"strings"
	"time"

	"connectrpc.com/connect"
	"example.com/gen/greetconnect"
	greetv1 "example.com/gen/greetv1"
)

// Shard greets from local state.
type Shard struct{ prefix string }

// Greet answers from the shard's own state.
func (s Shard) Greet(ctx context.Context, name string) (string, error) {
	if err := ctx.Err(); err != nil {
		return "", err
	}
	return s.prefix + name, nil
}

// Fanout asks every shard, in the process.
type Fanout []Shard

func (f Fanout) Greet(ctx context.Context, req *connect.Request[greetv1.GreetRequest]) (*connect.Response[greetv1.GreetResponse], error) {
	var parts []string
	for _, s := range f {
		p, err := s.Greet(ctx, req.Msg.Name)
		if err != nil {
			return nil, err
		}
		parts = append(parts, p)
	}
	return connect.NewResponse(&greetv1.GreetResponse{Greeting: strings.Join(parts, ",")}), nil
}

// Local ignores its ctx.
type Local struct{}

func (Local) Greet(_ context.Context, req *connect.Request[greetv1.GreetRequest]) (*connect.Response[greetv1.GreetResponse], error) {
	return connect.NewResponse(&greetv1.GreetResponse{Greeting: "hi " + req.Msg.Name}), nil
}

// Forward passes the call on to a remote greeter with the caller's ctx.
type Forward struct {
	Remote greetconnect.GreetServiceClient
}

func (f *Forward) Greet(ctx context.Context, req *connect.Request[greetv1.GreetRequest]) (*connect.Response[greetv1.GreetResponse], error) { // want Greet:"needsDeadline"
	return f.Remote.Greet(ctx, req)
}

// Bounded passes the call on with a deadline of its own.
type Bounded struct {
	Remote greetconnect.GreetServiceClient
}

func (b Bounded) Greet(ctx context.Context, req *connect.Request[greetv1.GreetRequest]) (*connect.Response[greetv1.GreetResponse], error) { // want Greet:"boundsCalls"
	ctx, cancel := context.WithTimeout(ctx, time.Second)
	defer cancel()
	return b.Remote.Greet(ctx, req)
}
