// Package started holds handlers that start functions of the package with go: a function that
// nothing else refers to, started with the request ctx, is the goroutine's body — a request
// scope — and one called otherwise too, exported, reachable through an interface, or started
// with another ctx, is not.
package started

import (
	"context"

	"example.com/gen/catalogpb"
	"google.golang.org/grpc"
)

// Server serves the catalog.
type Server struct {
	catalogpb.UnimplementedCatalogServer
	base context.Context
}

func (s *Server) GetItem(ctx context.Context, req *catalogpb.GetItemRequest) (*catalogpb.Item, error) { // want `unary Server.GetItem ctx=ctx recv=s`
	go s.warm(ctx, req.GetId())
	go warmAll(ctx)
	go s.shared(ctx)
	go s.Exported(ctx)
	go s.detached(s.base)
	go s.viaIface(ctx)
	return &catalogpb.Item{Id: req.GetId()}, nil
}

func (s *Server) ListItems(req *catalogpb.ListItemsRequest, stream grpc.ServerStreamingServer[catalogpb.Item]) error { // want `streaming Server.ListItems stream=stream recv=s`
	go s.warm(stream.Context(), req.GetCategory())
	return nil
}

// warm is started, by both handlers, with their request ctx, and by nothing else.
func (s *Server) warm(ctx context.Context, id string) { // want `started Server.GetItem ctx=ctx`
	done := func() {} // want `closure Server.GetItem`
	done()
}

// warmAll is a function, started the same way.
func warmAll(ctx context.Context) {} // want `started Server.GetItem ctx=ctx`

// shared is also called where it runs for nobody's request.
func (s *Server) shared(ctx context.Context) {}

// Exported may be called from other packages.
func (s *Server) Exported(ctx context.Context) {}

// detached is started with the server's own ctx.
func (s *Server) detached(ctx context.Context) {}

// viaIface is also a method an interface call may reach.
func (s *Server) viaIface(ctx context.Context) {}

type flusher interface{ viaIface(ctx context.Context) }

// Run is the server's lifecycle.
func (s *Server) Run(f flusher) {
	s.shared(s.base)
	f.viaIface(s.base)
}

// Register installs the server.
func Register(r grpc.ServiceRegistrar, s *Server) { catalogpb.RegisterCatalogServer(r, s) }
