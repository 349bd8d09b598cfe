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

// Get calls the store through its interface: one of its implementations drops the ctx.
func (s *Service) Get(ctx context.Context, id string) (string, error) { // want Get:"drops ctx: \\(\\*repo.PG\\).Load: context.Background\\(\\) at repo.go:19"
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
