// Package service sits between the handlers and the repository.
package service

import (
	"context"

	"ctxbackground/transitive/repo"
)

// Service reads items through a repo.Store.
type Service struct {
	store repo.Store
	pg    *repo.PG
}

// Get calls the store through its interface: one of its implementations drops the ctx, the
// other passes it on, so the call may well keep its deadline: no fact.
func (s *Service) Get(ctx context.Context, id string) (string, error) {
	return s.store.Load(ctx, id)
}

// Direct calls the bad implementation statically.
func (s *Service) Direct(ctx context.Context, id string) (string, error) { // want Direct:"drops ctx: repo.PG.Load"
	return s.pg.Load(ctx, id)
}

// Safe does nothing with a root context.
func (s *Service) Safe(ctx context.Context) error {
	return repo.Fallback(ctx, nil)
}

// Cached reads through a func field its constructor sets to one of its own methods.
type Cached struct {
	good *repo.Good
	load func(ctx context.Context, id string) (string, error)
}

// NewCached stores the method value c.refresh into the field.
func NewCached(good *repo.Good) *Cached {
	c := &Cached{good: good}
	c.load = c.refresh
	return c
}

// Get calls the method stored in the field; declared before it, so its fact is not known yet
// when Get is summarised.
func (c *Cached) Get(ctx context.Context, id string) (string, error) { // want Get:"drops ctx: service.Cached.refresh: context.Background\\(\\) at .*/service.go:52"
	return c.load(ctx, id)
}

func (c *Cached) refresh(_ context.Context, id string) (string, error) { // want refresh:"drops ctx: context.Background\\(\\) at .*/service.go:52"
	return c.good.Load(context.Background(), id)
}

// Loader is a named func type: a function stored into a field of it is converted first.
type Loader func(ctx context.Context, id string) (string, error)

// Named calls through a field of a named func type, set to a function of another package.
type Named struct{ load Loader }

// NewNamed stores repo.LoadFresh.
func NewNamed() *Named { return &Named{load: repo.LoadFresh} }

func (n *Named) Get(ctx context.Context, id string) (string, error) { // want Get:"drops ctx: repo.LoadFresh: context.Background\\(\\) at .*/traced.go:34"
	return n.load(ctx, id)
}
