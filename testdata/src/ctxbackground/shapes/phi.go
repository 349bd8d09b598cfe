package shapes

import (
	"context"

	"example.com/gen/catalogpb"
)

type Server struct {
	catalogpb.UnimplementedCatalogServer
	cond bool
}

// conditionalDrop: a phi merges the request ctx with a root; the root is reported.
func (s *Server) GetItem(ctx context.Context, req *catalogpb.GetItemRequest) (*catalogpb.Item, error) {
	c := ctx
	if s.cond {
		c = context.Background() // want `context.Background\(\) in handler Server.GetItem`
	}
	return load(c, req.GetId())
}
