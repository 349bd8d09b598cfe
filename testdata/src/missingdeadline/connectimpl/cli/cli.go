// Package cli calls the greet service's implementations of package shards by their concrete
// types, with no deadline: only the one that hands the ctx to a remote client is an RPC.
package cli

import (
	"context"

	"connectrpc.com/connect"
	"example.com/gen/greetconnect"
	greetv1 "example.com/gen/greetv1"
	"missingdeadline/connectimpl/shards"
)

func main() {
	ctx := context.Background()
	req := connect.NewRequest(&greetv1.GreetRequest{Name: "a"})

	_, _ = shards.Fanout{{}, {}}.Greet(ctx, req)
	_, _ = shards.Local{}.Greet(ctx, req)
	greet := shards.Local{}.Greet
	_, _ = greet(ctx, req)

	remote := greetconnect.NewGreetServiceClient(nil, "http://greeter")
	_, _ = shards.Bounded{Remote: remote}.Greet(ctx, req)
	fwd := &shards.Forward{Remote: remote}
	_, _ = fwd.Greet(ctx, req) // want `Forward\.Greet calls RPC GreetServiceClient\.Greet with no deadline .*reaches 1 more call`
	_, _ = remote.Greet(ctx, req)
}
