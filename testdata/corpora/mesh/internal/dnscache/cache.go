// Package dnscache is the control plane's cache of external service names, used by the
// destination service to answer for services outside the mesh.
package dnscache

import (
	"context"
	"net"
	"sync"
	"time"

	"example.test/mesh/internal/telemetry"
)

type entry struct {
	addrs   []string
	expires time.Time
}

// Cache is a read-through cache of name lookups.
type Cache struct {
	resolver *net.Resolver
	ttl      time.Duration
	log      *telemetry.Logger

	mu      sync.RWMutex
	entries map[string]entry
}

// New returns a cache holding answers for ttl.
func New(ttl time.Duration) *Cache {
	return &Cache{resolver: net.DefaultResolver, ttl: ttl, log: telemetry.NewLogger("dns"), entries: map[string]entry{}}
}

// Resolve returns the addresses of name, from the cache while they are fresh.
func (c *Cache) Resolve(ctx context.Context, name string) ([]string, error) {
	c.mu.RLock()
	e, ok := c.entries[name]
	c.mu.RUnlock()
	if ok && time.Now().Before(e.expires) {
		return e.addrs, nil
	}
	c.log.Debug(ctx, "dns refresh", "name", name)
	addrs, err := c.resolver.LookupHost(context.Background(), name)
	if err != nil {
		if ok {
			return e.addrs, nil // serve stale
		}
		return nil, err
	}
	c.mu.Lock()
	c.entries[name] = entry{addrs: addrs, expires: time.Now().Add(c.ttl)}
	c.mu.Unlock()
	return addrs, nil
}

// Warm resolves names ahead of the first request.
func (c *Cache) Warm(ctx context.Context, names []string) {
	for _, n := range names {
		if _, err := c.Resolve(ctx, n); err != nil {
			c.log.Warn(ctx, "warm", "name", n, "err", err)
		}
	}
}
