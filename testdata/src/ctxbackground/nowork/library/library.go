// Package library hands roots to functions of the standard library: one that only reads a
// value from its ctx (httptrace.ContextClientTrace, known from its syntax by a fact), and one
// that does work with it (net.Resolver.LookupHost).
package library

import (
	"context"
	"net"
	"net/http/httptrace"

	"example.com/gen/catalogpb"
)

// traced reads the client trace a root carries: no work, no deadline lost.
func traced(ctx context.Context) bool {
	return httptrace.ContextClientTrace(context.Background()) != nil && ctx != nil
}

// resolves looks a host up on a root.
func resolves(ctx context.Context, addr string) error { // want resolves:"drops ctx"
	var r net.Resolver
	_, err := r.LookupHost(context.Background(), addr)
	_ = ctx
	return err
}

type Server struct {
	catalogpb.UnimplementedCatalogServer
}

func (s *Server) GetItem(ctx context.Context, req *catalogpb.GetItemRequest) (*catalogpb.Item, error) {
	_ = traced(ctx)
	_ = resolves(ctx, req.GetId()) // want `library.resolves, called in handler Server.GetItem, works with context.Background\(\)`
	return nil, nil
}
