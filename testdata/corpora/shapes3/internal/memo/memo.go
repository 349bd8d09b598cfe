// Package memo is a small read-through cache with a loader and a time to live.
package memo

import (
	"context"
	"log"
	"sync"
	"time"
)

type entry[V any] struct {
	val     V
	expires time.Time
}

// Cache maps keys to values loaded on demand by its loader.
type Cache[K comparable, V any] struct {
	load func(context.Context, K) (V, error)
	ttl  time.Duration

	mu      sync.Mutex
	entries map[K]entry[V]
}

// New returns a cache that loads missing or expired keys with load.
func New[K comparable, V any](ttl time.Duration, load func(context.Context, K) (V, error)) *Cache[K, V] {
	return &Cache[K, V]{load: load, ttl: ttl, entries: make(map[K]entry[V])}
}

// Get returns the cached value of k, loading it with ctx when it is missing or expired.
func (c *Cache[K, V]) Get(ctx context.Context, k K) (V, error) {
	c.mu.Lock()
	e, ok := c.entries[k]
	c.mu.Unlock()
	if ok && time.Now().Before(e.expires) {
		return e.val, nil
	}
	v, err := c.load(ctx, k)
	if err != nil {
		var zero V
		return zero, err
	}
	c.mu.Lock()
	c.entries[k] = entry[V]{val: v, expires: time.Now().Add(c.ttl)}
	c.mu.Unlock()
	return v, nil
}

// Warm loads keys ahead of the first request for them, within budget.
func (c *Cache[K, V]) Warm(keys []K, budget time.Duration) {
	ctx, cancel := context.WithTimeout(context.Background(), budget)
	defer cancel()
	for _, k := range keys {
		v, err := c.load(ctx, k)
		if err != nil {
			log.Printf("memo: warm %v: %v", k, err)
			continue
		}
		c.mu.Lock()
		c.entries[k] = entry[V]{val: v, expires: time.Now().Add(c.ttl)}
		c.mu.Unlock()
	}
}

// Forget drops k.
func (c *Cache[K, V]) Forget(k K) {
	c.mu.Lock()
	delete(c.entries, k)
	c.mu.Unlock()
}
