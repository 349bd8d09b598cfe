// Package cache is a tiny read-through cache over a remote KV store.
package cache

import (
	"context"
	"sync"
	"time"
)

// Store is the remote KV store.
type Store interface {
	Fetch(ctx context.Context, key string) ([]byte, error)
}

// Cache caches values from a Store.
type Cache struct {
	mu    sync.Mutex
	store Store
	vals  map[string][]byte
	ttl   time.Duration
}

// New returns a cache over s.
func New(s Store, ttl time.Duration) *Cache {
	return &Cache{store: s, vals: map[string][]byte{}, ttl: ttl}
}

// Get returns the cached value for key, fetching it if needed.
//
// Deprecated-ish: prefer GetContext.
func (c *Cache) Get(key string) ([]byte, error) {
	return c.GetContext(context.Background(), key)
}

// GetContext returns the cached value for key, fetching it with ctx if needed.
func (c *Cache) GetContext(ctx context.Context, key string) ([]byte, error) {
	c.mu.Lock()
	v, ok := c.vals[key]
	c.mu.Unlock()
	if ok {
		return v, nil
	}
	v, err := c.store.Fetch(ctx, key)
	if err != nil {
		return nil, err
	}
	c.mu.Lock()
	c.vals[key] = v
	c.mu.Unlock()
	return v, nil
}

// Put stores a value; there is no remote write so it takes no context.
func (c *Cache) Put(key string, v []byte) {
	c.mu.Lock()
	c.vals[key] = v
	c.mu.Unlock()
}
