package shapes

import (
	"context"

	"example.com/gen/catalogpb"
)

type bound struct {
	catalogpb.UnimplementedCatalogServer
}

func (s *bound) fetch(ctx context.Context, id string) (*catalogpb.Item, error) { return load(ctx, id) }

// A $bound method value called with a root.
func (s *bound) GetItem(ctx context.Context, req *catalogpb.GetItemRequest) (*catalogpb.Item, error) {
	f := s.fetch
	return f(context.Background(), req.GetId()) // want `context.Background\(\) in handler bound.GetItem`
}
