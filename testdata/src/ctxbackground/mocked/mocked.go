// Package mocked hands root contexts, in helpers its handlers call, to an interface of another
// package of the module. Every implementation in sight of Store.Get reads memory: the root it is
// given loses nothing. The generated mocks of the interface, which the package's tests import,
// answer what a test programmed and are no implementation a production call reaches; a
// hand-written second implementation that waits on its ctx is one.
package mocked

import (
	"context"

	"example.com/gen/catalogpb"
	"example.com/repodb"
)

type source interface {
	Load(ctx context.Context, id string) (string, error)
}

type memory struct{ m map[string]string }

func (s memory) Load(_ context.Context, id string) (string, error) { return s.m[id], nil }

type waiting struct{ ready chan string }

func (s waiting) Load(ctx context.Context, id string) (string, error) {
	select {
	case <-ctx.Done():
		return "", ctx.Err()
	case v := <-s.ready:
		return v + id, nil
	}
}

type Server struct {
	catalogpb.UnimplementedCatalogServer
	store repodb.Store
	src   source
}

func NewServer(s repodb.Store) *Server { return &Server{store: s, src: memory{}} }

// cached reads through the store's in-memory index: silent.
func (s *Server) cached(id string) (*repodb.Item, error) {
	return s.store.Get(context.Background(), id)
}

// remote asks the store's backend with a root.
func (s *Server) remote(id string) (*repodb.Item, error) { // want remote:"drops ctx: context.TODO\\(\\) at .*/mocked.go:49"
	return s.store.Fetch(context.TODO(), id)
}

// loaded goes through an interface with a second implementation that waits on its ctx.
func (s *Server) loaded(id string) (string, error) { // want loaded:"drops ctx: context.Background\\(\\) at .*/mocked.go:54"
	return s.src.Load(context.Background(), id)
}

func (s *Server) GetItem(ctx context.Context, req *catalogpb.GetItemRequest) (*catalogpb.Item, error) {
	it, err := s.cached(req.GetId())
	if err != nil {
		return nil, err
	}
	if _, err := s.remote(it.ID); err != nil { // want `mocked\.Server\.remote, called in handler Server\.GetItem, works with context\.TODO\(\)`
		return nil, err
	}
	if _, err := s.loaded(it.ID); err != nil { // want `mocked\.Server\.loaded, called in handler Server\.GetItem, works with context\.Background\(\)`
		return nil, err
	}
	return &catalogpb.Item{Id: it.ID}, nil
}

var _ = waiting{}
