package apilib

import (
	"context"

	"example.com/gen/catalogpb"
)

// Store is a library's client; Get takes no ctx.
type Store struct{ C catalogpb.CatalogClient }

func (s *Store) Get(id string) error { // want Get:`noCtxAPI\(context.Background\(\): CatalogClient.GetItem\)`
	_, err := s.C.GetItem(context.Background(), &catalogpb.GetItemRequest{Id: id})
	return err
}

// getter is some interface of the package whose Get takes no ctx.
type getter interface{ Get(id string) error }

func warm(g getter) { _ = g.Get("warm") }

var (
	_ getter = (*Store)(nil)
	_        = warm
)
