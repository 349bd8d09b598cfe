// Package dialcache is a server that forwards requests over connections it dials once and
// keeps: dialing them with its own lifetime ctx is right, the connection outlives the request.
package dialcache

import (
	"context"
	"sync"
	"time"

	"example.com/gen/catalogpb"
	"google.golang.org/grpc"
)

// Server forwards to other nodes.
type Server struct {
	catalogpb.UnimplementedCatalogServer
	ctx   context.Context
	conns sync.Map
}

// conn returns the cached connection to addr, dialing it (bounded) on first use.
func (s *Server) conn(ctx context.Context, addr string) (*grpc.ClientConn, error) {
	if c, ok := s.conns.Load(addr); ok {
		return c.(*grpc.ClientConn), nil
	}
	dctx, cancel := context.WithTimeout(ctx, 3*time.Second)
	defer cancel()
	c, err := grpc.DialContext(dctx, addr)
	if err != nil {
		return nil, err
	}
	if old, loaded := s.conns.LoadOrStore(addr, c); loaded {
		_ = c.Close()
		return old.(*grpc.ClientConn), nil
	}
	return c, nil
}

// fetch dials and calls with the same ctx: the call is work done for the caller.
func (s *Server) fetch(ctx context.Context, addr, id string) (*catalogpb.Item, error) {
	c, err := s.conn(ctx, addr)
	if err != nil {
		return nil, err
	}
	return catalogpb.NewCatalogClient(c).GetItem(ctx, &catalogpb.GetItemRequest{Id: id})
}

func (s *Server) GetItem(ctx context.Context, req *catalogpb.GetItemRequest) (*catalogpb.Item, error) {
	c, err := s.conn(s.ctx, "node-2") // the connection's lifetime: not reported
	if err != nil {
		return nil, err
	}
	if req.GetId() == "" {
		return s.fetch(s.ctx, "node-3", "x") // want `Server.fetch in handler Server.GetItem uses receiver field ctx, a ctx that outlives the request; pass ctx`
	}
	return catalogpb.NewCatalogClient(c).GetItem(ctx, req)
}
