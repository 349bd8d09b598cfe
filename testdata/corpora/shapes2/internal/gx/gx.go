// Package gx holds the generic helpers the services share.
package gx

import (
	"context"
	"sync"
	"time"
)

// Retry calls fn up to n times with ctx.
func Retry[T any](ctx context.Context, n int, fn func(context.Context) (T, error)) (T, error) {
	var (
		v   T
		err error
	)
	for i := 0; i < n; i++ {
		if v, err = fn(ctx); err == nil {
			return v, nil
		}
		select {
		case <-ctx.Done():
			return v, ctx.Err()
		case <-time.After(time.Duration(i+1) * 50 * time.Millisecond):
		}
	}
	return v, err
}

// Detached runs fn on a context of its own, so a slow pricing engine never fails a booking.
func Detached[T any](ctx context.Context, fn func(context.Context) (T, error)) (T, error) {
	_ = ctx
	return fn(context.Background())
}

// Bounded runs fn with at most d of the caller's budget.
func Bounded[T any](ctx context.Context, d time.Duration, fn func(context.Context) (T, error)) (T, error) {
	ctx, cancel := context.WithTimeout(ctx, d)
	defer cancel()
	return fn(ctx)
}

// Loader is anything that loads a T by id.
type Loader[T any] interface {
	Load(ctx context.Context, id string) (T, error)
}

// LoadAll loads every id with ctx.
func LoadAll[T any, L Loader[T]](ctx context.Context, l L, ids []string) ([]T, error) {
	out := make([]T, 0, len(ids))
	for _, id := range ids {
		v, err := l.Load(ctx, id)
		if err != nil {
			return nil, err
		}
		out = append(out, v)
	}
	return out, nil
}

// Warm loads ids into the loader's cache.
func Warm[T any, L Loader[T]](l L, ids []string) int {
	n := 0
	for _, id := range ids {
		if _, err := l.Load(context.TODO(), id); err == nil {
			n++
		}
	}
	return n
}

// Cache is a read-through cache.
type Cache[K comparable, V any] struct {
	mu sync.Mutex
	m  map[K]V
}

// NewCache returns an empty cache.
func NewCache[K comparable, V any]() *Cache[K, V] {
	return &Cache[K, V]{m: map[K]V{}}
}

// GetOrLoad returns the cached value or loads it with ctx.
func (c *Cache[K, V]) GetOrLoad(ctx context.Context, k K, load func(context.Context, K) (V, error)) (V, error) {
	c.mu.Lock()
	v, ok := c.m[k]
	c.mu.Unlock()
	if ok {
		return v, nil
	}
	v, err := load(ctx, k)
	if err != nil {
		return v, err
	}
	c.mu.Lock()
	c.m[k] = v
	c.mu.Unlock()
	return v, nil
}

// Refresh reloads k in place.
func (c *Cache[K, V]) Refresh(k K, load func(context.Context, K) (V, error)) error {
	v, err := load(context.Background(), k)
	if err != nil {
		return err
	}
	c.mu.Lock()
	c.m[k] = v
	c.mu.Unlock()
	return nil
}
