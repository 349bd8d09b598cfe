package shapes

import (
	"context"

	"example.com/gen/catalogpb"
)

type captured struct {
	catalogpb.UnimplementedCatalogServer
}

// A root captured by a closure that reassigns it (spilled to an Alloc).
func (s *captured) GetItem(ctx context.Context, req *catalogpb.GetItemRequest) (*catalogpb.Item, error) {
	c := ctx
	reset := func() { c = context.TODO() } // want `context.TODO\(\) in handler captured.GetItem`
	reset()
	var item *catalogpb.Item
	run := func() { item, _ = load(c, req.GetId()) }
	run()
	return item, nil
}
