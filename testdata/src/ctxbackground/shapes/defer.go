package shapes

import (
	"context"

	"example.com/gen/catalogpb"
)

type deferred struct {
	catalogpb.UnimplementedCatalogServer
}

func audit(ctx context.Context, what string) { db.Put(ctx, what) }

// defer with a root.
func (s *deferred) GetItem(ctx context.Context, req *catalogpb.GetItemRequest) (*catalogpb.Item, error) {
	defer audit(context.Background(), "get") // want `context.Background\(\) in handler deferred.GetItem`
	return load(ctx, req.GetId())
}
