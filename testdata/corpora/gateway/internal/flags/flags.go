// Package flags holds the gateway's feature flags: a cluster-wide set pushed by
// the config reloader, with per-tenant overrides in the cache sidecar.
package flags

import (
	"context"
	"errors"
	"sync"

	"example.test/gateway/internal/platform/kv"
	"example.test/gateway/internal/tenants"
)

// Set is the live flag set.
type Set struct {
	kv *kv.Client

	mu     sync.RWMutex
	values map[string]bool
}

// New returns an empty flag set backed by c for overrides.
func New(c *kv.Client) *Set {
	return &Set{kv: c, values: map[string]bool{}}
}

// Replace swaps in a new cluster-wide set.
func (s *Set) Replace(values map[string]bool) {
	s.mu.Lock()
	s.values = values
	s.mu.Unlock()
}

// Enabled reports whether flag name is on for the tenant on ctx.
func (s *Set) Enabled(ctx context.Context, name string) (bool, error) {
	if t := tenants.IDFrom(ctx); t != "" {
		raw, err := s.kv.GetContext(ctx, "flag:"+t+":"+name)
		switch {
		case err == nil:
			return string(raw) == "1", nil
		case !errors.Is(err, kv.ErrMiss):
			return false, err
		}
	}
	s.mu.RLock()
	defer s.mu.RUnlock()
	return s.values[name], nil
}
