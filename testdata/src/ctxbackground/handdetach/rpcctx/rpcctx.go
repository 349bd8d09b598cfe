// Package rpcctx turns a request's ctx into the service's own, by hand: the values kept, the
// cancellation dropped on purpose.
package rpcctx

import (
	"context"

	"google.golang.org/grpc/metadata"
	"google.golang.org/grpc/peer"
)

type key int

const (
	headerKey key = iota
	addrKey
)

// Convert turns the gRPC ctx into the service's internal one: the request's headers and peer
// address, and nothing of its deadline — every call made with it runs to its end.
func Convert(ctx context.Context) context.Context {
	md, _ := metadata.FromIncomingContext(ctx)
	addr := ""
	if p, ok := peer.FromContext(ctx); ok && p.Addr != nil {
		addr = p.Addr.String()
	}
	out := context.Background()
	out = context.WithValue(out, headerKey, md)
	out = context.WithValue(out, addrKey, addr)
	return out
}

func Undocumented(ctx context.Context) context.Context {
	md, _ := metadata.FromIncomingContext(ctx)
	return context.WithValue(context.Background(), headerKey, md)
}

// TODO: keep the deadline.
func Unfinished(ctx context.Context) context.Context {
	md, _ := metadata.FromIncomingContext(ctx)
	return context.WithValue(context.Background(), headerKey, md)
}

// Audited also hands the new ctx to work before it returns it: a root doing work here.
func Audited(ctx context.Context, audit func(context.Context)) context.Context { // want Audited:"drops ctx: context.Background\\(\\) at .*/rpcctx.go:47"
	md, _ := metadata.FromIncomingContext(ctx)
	out := context.WithValue(context.Background(), headerKey, md)
	audit(out)
	return out
}

// Passing hands the request's ctx itself to work: it does not only read values from it.
func Passing(ctx context.Context, audit func(context.Context)) context.Context {
	audit(ctx)
	return context.WithValue(context.Background(), headerKey, ctx.Value(headerKey))
}
