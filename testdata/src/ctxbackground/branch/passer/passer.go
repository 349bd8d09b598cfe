// Package passer hands a choice it does not make on through an interface: the root's branch
// may be taken.
package passer

import (
	"context"

	"ctxbackground/branch/index"
	"example.com/gen/catalogpb"
)

type modeSetter interface {
	SetReadOnly(ctx context.Context, rdonly bool) error
}

var _ modeSetter = (*index.Index)(nil)

type Passer struct {
	catalogpb.UnimplementedCatalogServer
	store modeSetter
	ro    bool
}

func (p *Passer) GetItem(ctx context.Context, req *catalogpb.GetItemRequest) (*catalogpb.Item, error) {
	return &catalogpb.Item{Id: req.GetId()}, p.store.SetReadOnly(ctx, p.ro) // want `\(\*index\.Index\)\.SetReadOnly, called in handler Passer\.GetItem, works with context\.Background\(\)`
}
