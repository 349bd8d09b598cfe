// Package mocked hands root contexts, in helpers its handlers call, to an interface of another
// package of the module. Every implementation in sight of Store.Get reads memory: the root it is
// given loses nothing. The generated mocks of the interface, which the package's tests import,
// answer what a test programmed and are no implementation a production call reaches; a
// hand-written second implementation that waits on its ctx is one. Leaving mocks out only ever
// makes the rule more silent: through an interface whose every production implementation drops
// the ctx but whose mock passes it on (Cleaner), no drop is reported; through the same shape
// with no mock (Pruner), one is.
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
	store  repodb.Store
	src    source
	clean  repodb.Cleaner
	prunes repodb.Pruner
}

// NewServer takes its source from the caller: which implementation it holds is out of sight.
func NewServer(s repodb.Store, src source) *Server { return &Server{store: s, src: src} }

// cached reads through the store's in-memory index: silent.
func (s *Server) cached(id string) (*repodb.Item, error) {
	return s.store.Get(context.Background(), id)
}

// remote asks the store's backend with a root.
func (s *Server) remote(id string) (*repodb.Item, error) { // want remote:"drops ctx: context.TODO\\(\\) at .*/mocked.go:55"
	return s.store.Fetch(context.TODO(), id)
}

// loaded goes through an interface with a second implementation that waits on its ctx.
func (s *Server) loaded(id string) (string, error) { // want loaded:"drops ctx: context.Background\\(\\) at .*/mocked.go:60"
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
	if err := s.clean.Clean(ctx, it.ID); err != nil { // its mock passes the ctx on: silent
		return nil, err
	}
	if err := s.prunes.Prune(ctx, it.ID); err != nil { // want `\(repodb\.remover\)\.Prune, called in handler Server\.GetItem, works with context\.Background\(\)`
		return nil, err
	}
	if _, err := s.loaded(it.ID); err != nil { // want `mocked\.Server\.loaded, called in handler Server\.GetItem, works with context\.Background\(\)`
		return nil, err
	}
	return &catalogpb.Item{Id: it.ID}, nil
}

var _ = waiting{}
