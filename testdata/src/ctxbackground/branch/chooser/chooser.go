// Package chooser passes a bool that is no constant: the branch may be taken.
package chooser

import (
	"context"

	"ctxbackground/branch/index"
	"example.com/gen/catalogpb"
)

type Chooser struct {
	catalogpb.UnimplementedCatalogServer
	idx *index.Index
}

func (c *Chooser) GetItem(ctx context.Context, req *catalogpb.GetItemRequest) (*catalogpb.Item, error) {
	_ = c.idx.GetOpt(ctx, req.GetId(), req.GetId() == "") // want `index\.Index\.GetOpt, called in handler Chooser\.GetItem, works with context\.Background\(\)`
	return &catalogpb.Item{Id: req.GetId()}, nil
}
