package shapes

import (
	"context"

	"example.com/gen/catalogpb"
)

type shadowed struct {
	catalogpb.UnimplementedCatalogServer
}

// A shadowing ctx := context.Background().
func (s *shadowed) GetItem(ctx context.Context, req *catalogpb.GetItemRequest) (*catalogpb.Item, error) {
	{
		ctx := context.Background() // want `context.Background\(\) in handler shadowed.GetItem drops the caller's deadline and cancellation; pass ctx`
		_, _ = load(ctx, "shadow")
	}
	return load(ctx, req.GetId())
}
