// Package cachex is a small read-through cache with a time to live.
package cachex

import (
	"context"
	"sync"
	"time"
)

type entry[V any] struct {
	v   V
	exp time.Time
}

// Cache loads values on a miss and keeps them for ttl.
type Cache[K comparable, V any] struct {
	mu    sync.Mutex
	ttl   time.Duration
	items map[K]entry[V]
	load  func(context.Context, K) (V, error)
}

// New returns a cache that calls load on a miss.
func New[K comparable, V any](ttl time.Duration, load func(context.Context, K) (V, error)) *Cache[K, V] {
	return &Cache[K, V]{ttl: ttl, items: make(map[K]entry[V]), load: load}
}

// Get returns the cached value of k, loading it when it is missing or stale.
func (c *Cache[K, V]) Get(ctx context.Context, k K) (V, error) {
	c.mu.Lock()
	e, ok := c.items[k]
	c.mu.Unlock()
	if ok && time.Now().Before(e.exp) {
		return e.v, nil
	}
	v, err := c.load(ctx, k)
	if err != nil {
		var zero V
		return zero, err
	}
	c.mu.Lock()
	c.items[k] = entry[V]{v: v, exp: time.Now().Add(c.ttl)}
	c.mu.Unlock()
	return v, nil
}
