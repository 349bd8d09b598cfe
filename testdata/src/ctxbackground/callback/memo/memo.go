// Package memo is a generic read-through cache whose loader is handed to its constructor and
// run, later, by its methods: a callback that travels through a struct field. Facts say which
// field New stores its parameter in, and which fields Get runs; the callers' packages put the
// two together.
package memo

import (
	"context"
	"sync"
	"time"
)

// Cache remembers what its loader returned.
type Cache[K comparable, V any] struct {
	mu   sync.Mutex
	m    map[K]V
	load func(context.Context, K) (V, error)
	hook func(K)
}

// New returns a cache that fills itself with load.
func New[K comparable, V any](load func(context.Context, K) (V, error)) *Cache[K, V] {
	return &Cache[K, V]{m: make(map[K]V), load: load}
}

// Get returns k's value, loading it with ctx on a miss.
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

// Warm loads keys ahead of their first Get, on a budget of its own: whatever the loader does
// with a ctx, it does with this root.
func (c *Cache[K, V]) Warm(keys []K) error { // want Warm:`runs fields \[load\] with roots`
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
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

// Prefetch loads k on a goroutine of its own: it does not run the loader as part of the call.
func (c *Cache[K, V]) Prefetch(ctx context.Context, k K) {
	go func() { _, _ = c.Get(ctx, k) }()
}

// Peek runs only the hook, never the loader.
func (c *Cache[K, V]) Peek(ctx context.Context, k K) bool {
	if c.hook != nil {
		c.hook(k)
	}
	_, ok := c.m[k]
	return ok
}
