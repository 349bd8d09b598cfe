package shapes

import (
	"context"

	"example.com/gen/catalogpb"
)

// Loader is called in invoke mode: the receiver is not among the call's arguments, and the
// ctx is found from the method's signature.
type Loader interface {
	Load(id string, ctx context.Context) (*catalogpb.Item, error)
}

type static struct{}

// Load takes the ctx second: a static call puts the receiver first in Args.
func (static) Load(id string, ctx context.Context) (*catalogpb.Item, error) { return load(ctx, id) }

type dispatch struct {
	catalogpb.UnimplementedCatalogServer
	loader Loader
	direct static
}

func (s *dispatch) GetItem(ctx context.Context, req *catalogpb.GetItemRequest) (*catalogpb.Item, error) {
	_, _ = s.loader.Load(req.GetId(), context.Background()) // want `context.Background\(\) in handler dispatch.GetItem`
	_, _ = s.direct.Load(req.GetId(), context.TODO())       // want `context.TODO\(\) in handler dispatch.GetItem`
	return s.loader.Load(req.GetId(), ctx)
}
