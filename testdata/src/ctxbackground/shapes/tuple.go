package shapes

import (
	"context"
	"time"

	"example.com/gen/catalogpb"
)

type tuple struct {
	catalogpb.UnimplementedCatalogServer
}

// Extract of WithTimeout's tuple, derived from ctx: fine.
func (s *tuple) GetItem(ctx context.Context, req *catalogpb.GetItemRequest) (*catalogpb.Item, error) {
	cctx, cancel := context.WithTimeout(ctx, time.Second)
	defer cancel()
	vctx := context.WithValue(cctx, struct{}{}, 1)
	return load(vctx, req.GetId())
}
