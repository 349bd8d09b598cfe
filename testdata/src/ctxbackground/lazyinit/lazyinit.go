// Package lazyinit decodes tokens against a store whose ID is read once and kept. A root
// handed to a method whose only work with its ctx is that first read (behind a check of the
// field it then sets) loses no request's deadline: what it builds serves every later request.
// A root handed to a method that also works with it on every call is reported.
package lazyinit

import (
	"context"
	"errors"
	"sync/atomic"

	"ctxbackground/lazyinit/ids"
	"example.com/gen/catalogpb"
)

// Store is the datastore a token is checked against.
type Store interface {
	ID(ctx context.Context) (string, error)
}

// db queries its ID on first use and keeps it in an atomic field.
type db struct {
	id  atomic.Pointer[string]
	row func(ctx context.Context) (string, error)
}

func (d *db) ID(ctx context.Context) (string, error) {
	if d.id.Load() == nil {
		id, err := d.query(ctx)
		if err != nil {
			return "", err
		}
		d.id.Store(&id)
		return id, nil
	}
	return *d.id.Load(), nil
}

func (d *db) query(ctx context.Context) (string, error) {
	if err := ctx.Err(); err != nil {
		return "", err
	}
	return d.row(ctx)
}

// mem has its ID in hand.
type mem struct{ id string }

func (m mem) ID(context.Context) (string, error) { return m.id, nil }

// cached keeps its ID in a plain field, set on first use.
type cached struct {
	id    string
	inner *db
}

func (c *cached) ID(ctx context.Context) (string, error) {
	if c.id == "" {
		id, err := c.inner.query(ctx)
		if err != nil {
			return "", err
		}
		c.id = id
	}
	return c.id, nil
}

// live queries its ID on every call.
type live struct{ inner *db }

func (l live) Fetch(ctx context.Context) (string, error) { return l.inner.query(ctx) }

var (
	_ Store = (*db)(nil)
	_ Store = mem{}
	_ Store = (*cached)(nil)
)

// decode checks a token's prefix against the store's ID, read with a root: silent, every
// implementation of Store in sight works with its ctx only on first use.
func decode(s Store, token string) error {
	id, err := s.ID(context.Background())
	if err != nil {
		return err
	}
	if len(token) < len(id) || token[:len(id)] != id {
		return errors.New("token of another store")
	}
	return nil
}

// decodeDB does the same with the concrete store: silent.
func decodeDB(d *db, token string) error {
	id, err := d.ID(context.TODO())
	if err != nil {
		return err
	}
	if token != id {
		return errors.New("token of another store")
	}
	return nil
}

// decodeLive reads the ID with a root from a store that queries it every time.
func decodeLive(l live, token string) error { // want decodeLive:"drops ctx"
	id, err := l.Fetch(context.Background())
	if err != nil {
		return err
	}
	if token != id {
		return errors.New("token of another store")
	}
	return nil
}

// cluster names the cluster with a root, read once by the package ids: silent.
func cluster(i *ids.IDs) string {
	return i.Cluster(context.Background())
}

// leader reads the leader with a root, on every call.
func leader(i *ids.IDs) (string, error) { // want leader:"drops ctx"
	return i.Leader(context.Background())
}

// Server checks tokens.
type Server struct {
	catalogpb.UnimplementedCatalogServer
	store Store
	db    *db
	live  live
	ids   *ids.IDs
	f     *flight
}

func (s *Server) GetItem(ctx context.Context, req *catalogpb.GetItemRequest) (*catalogpb.Item, error) {
	if err := decode(s.store, req.GetId()); err != nil {
		return nil, err
	}
	if err := decodeDB(s.db, req.GetId()); err != nil {
		return nil, err
	}
	if err := decodeLive(s.live, req.GetId()); err != nil { // want `lazyinit.decodeLive, called in handler Server.GetItem, works with context.Background\(\)`
		return nil, err
	}
	if req.GetId() == cluster(s.ids) {
		return nil, errors.New("reserved")
	}
	if _, err := leader(s.ids); err != nil { // want `lazyinit.leader, called in handler Server.GetItem, works with context.Background\(\)`
		return nil, err
	}
	if err := member(s.f, req.GetId()); err != nil { // want `lazyinit.member, called in handler Server.GetItem, works with context.Background\(\)`
		return nil, err
	}
	return &catalogpb.Item{Id: req.GetId()}, nil
}
