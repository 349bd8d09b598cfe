package overrides

import (
	"context"

	"example.com/gen/catalogpb"
)

// chain asks each of the schemas it holds in turn: what it runs depends on what it was made
// of, which its type alone does not say.
type chain []schemas

func (c chain) Lookup(ctx context.Context, name string) (string, bool) {
	for _, s := range c {
		if v, ok := s.Lookup(ctx, name); ok {
			return v, ok
		}
	}
	return "", false
}

var defaults = []schemas{none{}}

// Chained looks up through a chain of the schemas its builder gives it.
type Chained struct {
	catalogpb.UnimplementedCatalogServer
	fallback schemas
	backend  schemas
}

// NewChained chains list, which may hold a store that queries a database.
func NewChained(list []schemas) *Chained {
	c := &Chained{fallback: chain(defaults), backend: none{}}
	if len(list) > 0 {
		c.fallback = chain(list)
	}
	return c
}

func (c *Chained) GetItem(ctx context.Context, req *catalogpb.GetItemRequest) (*catalogpb.Item, error) {
	v, _ := c.fallback.Lookup(context.Background(), req.GetId()) // want `context\.Background\(\) in handler Chained\.GetItem drops the caller's deadline and cancellation; pass ctx`
	w, _ := c.backend.Lookup(context.TODO(), req.GetId())        // want `context\.TODO\(\) in handler Chained\.GetItem drops the caller's deadline and cancellation; pass ctx`
	return &catalogpb.Item{Id: v + w}, nil
}

// UseRemote makes the backend the remote store of generated.go.
func (c *Chained) UseRemote(r remoteStore) { c.backend = r }
