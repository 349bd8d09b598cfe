// Package repodb is the service's storage layer behind an interface. Its one implementation
// serves Get from an in-memory index filled by an informer, and Fetch from a remote backend with
// the ctx it is given. Generated mocks of the interface live in repodb/mocks, for tests.
package repodb

import (
	"context"
	"errors"
	"net/http"
)

// Item is a stored record.
type Item struct{ ID string }

// Store is what the servers hold.
type Store interface {
	Get(ctx context.Context, id string) (*Item, error)
	Fetch(ctx context.Context, id string) (*Item, error)
}

// New returns the store.
func New(c *http.Client, url string) Store {
	return &store{idx: &index{items: map[string]*Item{}}, client: c, url: url}
}

type store struct {
	idx    *index
	client *http.Client
	url    string
}

// Get reads the in-memory index through another interface of the package.
func (s *store) Get(ctx context.Context, id string) (*Item, error) {
	var r reader = s.idx
	return r.read(ctx, id)
}

// Fetch asks the remote backend, with the ctx it is given.
func (s *store) Fetch(ctx context.Context, id string) (*Item, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, s.url+"/"+id, nil)
	if err != nil {
		return nil, err
	}
	resp, err := s.client.Do(req)
	if err != nil {
		return nil, err
	}
	resp.Body.Close()
	return &Item{ID: id}, nil
}

type reader interface {
	read(ctx context.Context, id string) (*Item, error)
}

type index struct{ items map[string]*Item }

// read never refers to its ctx: a map lookup.
func (x *index) read(_ context.Context, id string) (*Item, error) {
	it, ok := x.items[id]
	if !ok {
		return nil, errors.New("not found")
	}
	return it, nil
}
