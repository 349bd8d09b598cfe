package shapes

import (
	"context"

	"example.com/gen/catalogpb"
)

type generic struct {
	catalogpb.UnimplementedCatalogServer
}

func first[T any](ctx context.Context, xs []T) T { _, _ = load(ctx, ""); var zero T; return zero }

// Calls into a generic function.
func (s *generic) GetItem(ctx context.Context, req *catalogpb.GetItemRequest) (*catalogpb.Item, error) {
	_ = first(context.TODO(), []int{1}) // want `context.TODO\(\) in handler generic.GetItem`
	_ = first(ctx, []string{"ok"})
	return nil, nil
}
