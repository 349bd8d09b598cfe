// Package api is the gRPC service; the root it reaches is two packages away, through packages
// that import no context package.
package api

import (
	"context"

	"ctxbackground/nocontext/parse"
	"example.com/gen/catalogpb"
)

type Server struct {
	catalogpb.UnimplementedCatalogServer
}

func (s *Server) GetItem(ctx context.Context, req *catalogpb.GetItemRequest) (*catalogpb.Item, error) {
	name, err := parse.Parse(req.GetId()) // want `parse.Parse, called in handler Server.GetItem, works with context.TODO\(\); pass ctx down`
	if err != nil {
		return nil, err
	}
	return &catalogpb.Item{Id: parse.Trim(name)}, nil
}
