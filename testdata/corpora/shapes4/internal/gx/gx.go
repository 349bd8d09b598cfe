// Package gx holds small generic helpers: retries, fan-out, a read-through cache.
package gx

import (
	"context"
	"sync"
	"time"
)

// Retry calls fn with ctx up to attempts times, backing off between attempts.
func Retry[T any](ctx context.Context, attempts int, fn func(context.Context) (T, error)) (T, error) {
	var zero T
	var err error
	for i := 0; i < attempts; i++ {
		var v T
		if v, err = fn(ctx); err == nil {
			return v, nil
		}
		select {
		case <-ctx.Done():
			return zero, ctx.Err()
		case <-time.After(time.Duration(i+1) * 100 * time.Millisecond):
		}
	}
	return zero, err
}

// Map calls fn with ctx for every key, in order, and stops at the first error.
func Map[K any, V any](ctx context.Context, keys []K, fn func(context.Context, K) (V, error)) ([]V, error) {
	out := make([]V, 0, len(keys))
	for _, k := range keys {
		v, err := fn(ctx, k)
		if err != nil {
			return out, err
		}
		out = append(out, v)
	}
	return out, nil
}

type entry[V any] struct {
	val     V
	expires time.Time
}

// Cache is a read-through cache: a miss or an expired entry calls the loader with the
// ctx of the Get, outside the lock.
type Cache[K comparable, V any] struct {
	mu      sync.Mutex
	ttl     time.Duration
	load    func(context.Context, K) (V, error)
	entries map[K]entry[V]
}

// NewCache returns a cache that loads misses with load.
func NewCache[K comparable, V any](ttl time.Duration, load func(context.Context, K) (V, error)) *Cache[K, V] {
	return &Cache[K, V]{ttl: ttl, load: load, entries: make(map[K]entry[V])}
}

// Get returns the cached value of k, loading it on a miss.
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

// Forget drops k.
func (c *Cache[K, V]) Forget(k K) {
	c.mu.Lock()
	delete(c.entries, k)
	c.mu.Unlock()
}
