package unlooked

import (
	"context"

	"example.com/gen/catalogpb"

	"ctxbackground/unlooked/plug"
)

// mem reads from memory: it never looks at its ctx.
type mem struct{ items map[string]string }

func (m mem) Get(_ context.Context, id string) (string, error) { return m.items[id], nil }

// registry's stores are set to mem by its constructor, and some of them are also handed where
// another package can put a Remote in their place: a root given to those may reach the Remote.
type registry struct {
	catalogpb.UnimplementedCatalogServer
	cache    plug.Store            // only ever mem: its calls never look at their ctx
	fallback plug.Store            // its address goes to plug.SetPtr
	backends map[string]plug.Store // handed to plug.RegisterAll
}

func newRegistry() *registry {
	r := &registry{cache: mem{}, fallback: mem{}, backends: map[string]plug.Store{"mem": mem{}}}
	plug.SetPtr(&r.fallback)
	plug.RegisterAll(r.backends)
	return r
}

// defaultStore is mem until init hands its address to plug.SetPtr.
var defaultStore plug.Store = mem{}

func init() { plug.SetPtr(&defaultStore) }

func (r *registry) GetItem(ctx context.Context, req *catalogpb.GetItemRequest) (*catalogpb.Item, error) {
	id := req.GetId()
	_, _ = r.cache.Get(context.Background(), id)      // every value in sight, none looks at its ctx: silent
	_, _ = r.fallback.Get(context.Background(), id)   // want `context.Background\(\) in handler registry.GetItem drops the caller's deadline`
	_, _ = r.backends[id].Get(context.TODO(), id)     // want `context.TODO\(\) in handler registry.GetItem drops the caller's deadline`
	_, _ = defaultStore.Get(context.Background(), id) // want `context.Background\(\) in handler registry.GetItem drops the caller's deadline`
	local := []plug.Store{mem{}}
	_, _ = local[0].Get(context.Background(), id) // a literal kept here: silent
	filled := []plug.Store{mem{}}
	plug.FillSlice(filled)
	_, _ = filled[0].Get(context.Background(), id) // want `context.Background\(\) in handler registry.GetItem drops the caller's deadline`
	copied := []plug.Store{mem{}}
	copy(copied, []plug.Store{&plug.Remote{}})
	_, _ = copied[0].Get(context.TODO(), id) // want `context.TODO\(\) in handler registry.GetItem drops the caller's deadline`
	replaced := []plug.Store{mem{}}
	replaced[0] = &plug.Remote{}
	_, _ = replaced[0].Get(context.Background(), id) // want `context.Background\(\) in handler registry.GetItem drops the caller's deadline`
	return &catalogpb.Item{Id: id}, nil
}
