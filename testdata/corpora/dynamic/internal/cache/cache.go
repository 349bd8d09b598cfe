// Package cache is a small read-through cache, generic over key and value.
package cache

import (
	"context"
	"sync"
	"time"
)

const warmBudget = 30 * time.Second

// Cache remembers what its loader returned.
type Cache[K comparable, V any] struct {
	mu   sync.Mutex
	m    map[K]V
	load func(context.Context, K) (V, error)
}

// New returns an empty cache that fills itself with load.
func New[K comparable, V any](load func(context.Context, K) (V, error)) *Cache[K, V] {
	return &Cache[K, V]{m: make(map[K]V), load: load}
}

// Get returns the cached value of k, loading it with ctx on a miss.
func (c *Cache[K, V]) Get(ctx context.Context, k K) (V, error) {
	c.mu.Lock()
	v, ok := c.m[k]
	c.mu.Unlock()
	if ok {
		return v, nil
	}
	v, err := c.load(ctx, k)
	if err != nil {
		return v, err
	}
	c.mu.Lock()
	c.m[k] = v
	c.mu.Unlock()
	return v, nil
}

// Warm loads keys ahead of their first Get.
func (c *Cache[K, V]) Warm(keys []K) error {
	ctx, cancel := context.WithTimeout(context.Background(), warmBudget)
	defer cancel()
	for _, k := range keys {
		v, err := c.load(ctx, k)
		if err != nil {
			return err
		}
		c.mu.Lock()
		c.m[k] = v
		c.mu.Unlock()
	}
	return nil
}

// Forget drops k.
func (c *Cache[K, V]) Forget(k K) {
	c.mu.Lock()
	delete(c.m, k)
	c.mu.Unlock()
}
