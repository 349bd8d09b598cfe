package overrides

import (
	"context"
	"database/sql"

	"example.com/gen/catalogpb"

	"ctxbackground/overrides/fill"
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

// listed asks each of the schemas its list holds in turn, as chain does, from a field: what it
// runs depends on the list it was made with.
type listed struct{ list []schemas }

func (l *listed) Lookup(ctx context.Context, name string) (string, bool) {
	for _, s := range l.list {
		if v, ok := s.Lookup(ctx, name); ok {
			return v, ok
		}
	}
	return "", false
}

// Wrapped looks up through a wrapper of the list its builder gives it.
type Wrapped struct {
	catalogpb.UnimplementedCatalogServer
	fallback schemas
}

// NewWrapped wraps list, which may hold a store that queries a database.
func NewWrapped(list []schemas) *Wrapped {
	w := &Wrapped{fallback: &listed{list: defaults}}
	if len(list) > 0 {
		w.fallback = &listed{list: list}
	}
	return w
}

func (w *Wrapped) GetItem(ctx context.Context, req *catalogpb.GetItemRequest) (*catalogpb.Item, error) {
	v, _ := w.fallback.Lookup(context.Background(), req.GetId()) // want `context\.Background\(\) in handler Wrapped\.GetItem drops the caller's deadline and cancellation; pass ctx`
	return &catalogpb.Item{Id: v}, nil
}

// pinned asks the schemas of a list the package makes itself: none of them works with its ctx.
type pinned struct{ list []schemas }

func (p *pinned) Lookup(ctx context.Context, name string) (string, bool) {
	for _, s := range p.list {
		if v, ok := s.Lookup(ctx, name); ok {
			return v, ok
		}
	}
	return "", false
}

// Pinned looks up through a wrapper of the package's own defaults, grown by append.
type Pinned struct {
	catalogpb.UnimplementedCatalogServer
	fallback schemas
}

func NewPinned() *Pinned {
	return &Pinned{fallback: &pinned{list: append(defaults, none{})}}
}

func (p *Pinned) GetItem(ctx context.Context, req *catalogpb.GetItemRequest) (*catalogpb.Item, error) {
	v, _ := p.fallback.Lookup(context.Background(), req.GetId()) // every value in sight ignores its ctx: silent
	return &catalogpb.Item{Id: v}, nil
}

// paired asks the two schemas of an array field in turn.
type paired struct{ pair [2]schemas }

func (p *paired) Lookup(ctx context.Context, name string) (string, bool) {
	for i := range p.pair {
		if v, ok := p.pair[i].Lookup(ctx, name); ok {
			return v, ok
		}
	}
	return "", false
}

// copied asks the schemas of a slice it makes and copies its caller's list into.
type copied struct{ list []schemas }

func (c *copied) Lookup(ctx context.Context, name string) (string, bool) {
	for _, s := range c.list {
		if v, ok := s.Lookup(ctx, name); ok {
			return v, ok
		}
	}
	return "", false
}

func newCopied(list []schemas) *copied {
	own := make([]schemas, len(list))
	copy(own, list)
	return &copied{list: own}
}

// Arrays serves through an array of the package's own schemas (silent), and through a copy of
// a list its builder is given (reported).
type Arrays struct {
	catalogpb.UnimplementedCatalogServer
	pair schemas
	copy schemas
}

func NewArrays(list []schemas) *Arrays {
	return &Arrays{pair: &paired{pair: [2]schemas{none{}, none{}}}, copy: newCopied(list)}
}

func (a *Arrays) GetItem(ctx context.Context, req *catalogpb.GetItemRequest) (*catalogpb.Item, error) {
	v, _ := a.pair.Lookup(context.Background(), req.GetId()) // every value in sight ignores its ctx: silent
	w, _ := a.copy.Lookup(context.TODO(), req.GetId())       // want `context\.TODO\(\) in handler Arrays\.GetItem drops the caller's deadline and cancellation; pass ctx`
	return &catalogpb.Item{Id: v + w}, nil
}

// keyed asks the schemas of a map by name.
type keyed struct{ byName map[string]schemas }

func (k *keyed) Lookup(ctx context.Context, name string) (string, bool) {
	if s, ok := k.byName[name]; ok {
		return s.Lookup(ctx, name)
	}
	return "", false
}

// fixedKeys is keyed over a map only ever a literal of the package's own schemas.
type fixedKeys struct{ byName map[string]schemas }

func (k *fixedKeys) Lookup(ctx context.Context, name string) (string, bool) {
	if s, ok := k.byName[name]; ok {
		return s.Lookup(ctx, name)
	}
	return "", false
}

// Maps serves through a map literal of the package's own schemas (silent), and through a map
// another package fills, here with the database (reported).
type Maps struct {
	catalogpb.UnimplementedCatalogServer
	literal schemas
	filled  schemas
}

func NewMaps(db *sql.DB) *Maps {
	m := make(map[string]schemas)
	fill.Put[schemas](m, "db", stored{db: db})
	return &Maps{literal: &fixedKeys{byName: map[string]schemas{"none": none{}}}, filled: &keyed{byName: m}}
}

func (m *Maps) GetItem(ctx context.Context, req *catalogpb.GetItemRequest) (*catalogpb.Item, error) {
	v, _ := m.literal.Lookup(context.Background(), req.GetId()) // every value in sight ignores its ctx: silent
	w, _ := m.filled.Lookup(context.TODO(), req.GetId())        // want `context\.TODO\(\) in handler Maps\.GetItem drops the caller's deadline and cancellation; pass ctx`
	return &catalogpb.Item{Id: v + w}, nil
}
