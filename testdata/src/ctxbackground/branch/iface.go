package branch

import (
	"context"

	"example.com/gen/catalogpb"
)

// modeSetter is what a server holds to switch its store's mode; *index.Index, whose
// SetReadOnly reaches its root only when asked to turn read-only off, is what it holds.
type modeSetter interface {
	SetReadOnly(ctx context.Context, rdonly bool) error
}

// Freezer turns read-only on through the interface: the constant excludes the root's branch in
// every implementation, as it does for a static call.
type Freezer struct {
	catalogpb.UnimplementedCatalogServer
	store modeSetter
}

func (f *Freezer) GetItem(ctx context.Context, req *catalogpb.GetItemRequest) (*catalogpb.Item, error) {
	return &catalogpb.Item{Id: req.GetId()}, f.store.SetReadOnly(ctx, true) // silent: never redoes
}

// Thawer turns it off: the root is reached.
type Thawer struct {
	catalogpb.UnimplementedCatalogServer
	store modeSetter
}

func (t *Thawer) GetItem(ctx context.Context, req *catalogpb.GetItemRequest) (*catalogpb.Item, error) {
	return &catalogpb.Item{Id: req.GetId()}, t.store.SetReadOnly(ctx, false) // want `\(\*index\.Index\)\.SetReadOnly, called in handler Thawer\.GetItem, works with context\.Background\(\)`
}
