package ctxkit

import (
	"context"
	"errors"
	"sync"
	"time"
)

// ErrMiss is returned by Cache.Get for a key that is not cached.
var ErrMiss = errors.New("ctxkit: cache miss")

// Fetch loads one value with load, wrapping the error with the key.
func Fetch[T any](ctx context.Context, load func(context.Context, string) (T, error), key string) (T, error) {
	v, err := load(ctx, key)
	if err != nil {
		var zero T
		return zero, &KeyError{Key: key, Err: err}
	}
	return v, nil
}

// KeyError annotates an error with the key being processed.
type KeyError struct {
	Key string
	Err error
}

func (e *KeyError) Error() string { return e.Key + ": " + e.Err.Error() }
func (e *KeyError) Unwrap() error { return e.Err }

// Map applies fn to every element, stopping at the first error or when ctx is done.
func Map[In, Out any](ctx context.Context, in []In, fn func(context.Context, In) (Out, error)) ([]Out, error) {
	out := make([]Out, 0, len(in))
	for _, v := range in {
		if err := ctx.Err(); err != nil {
			return out, err
		}
		o, err := fn(ctx, v)
		if err != nil {
			return out, err
		}
		out = append(out, o)
	}
	return out, nil
}

// ForEach calls fn for every element with ctx.
func ForEach[T any](ctx context.Context, items []T, fn func(context.Context, T) error) error {
	for _, it := range items {
		if err := fn(ctx, it); err != nil {
			return err
		}
	}
	return nil
}

// WithBudget runs f under its own fresh budget of d. It is meant for start-up
// and maintenance code that has no caller to inherit a deadline from.
func WithBudget[T any](d time.Duration, f func(context.Context) (T, error)) (T, error) {
	ctx, cancel := context.WithTimeout(context.Background(), d)
	defer cancel()
	return f(ctx)
}

// Loader loads a value for a key.
type Loader[K comparable, V any] func(ctx context.Context, key K) (V, error)

type entry[V any] struct {
	val     V
	expires time.Time
}

// Cache is a small TTL cache in front of a Loader.
type Cache[K comparable, V any] struct {
	mu    sync.Mutex
	ttl   time.Duration
	load  Loader[K, V]
	items map[K]entry[V]
}

// NewCache returns a cache that loads misses with load.
func NewCache[K comparable, V any](ttl time.Duration, load Loader[K, V]) *Cache[K, V] {
	return &Cache[K, V]{ttl: ttl, load: load, items: make(map[K]entry[V])}
}

// Peek returns the cached value without loading.
func (c *Cache[K, V]) Peek(key K) (V, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	e, ok := c.items[key]
	if !ok || time.Now().After(e.expires) {
		var zero V
		return zero, false
	}
	return e.val, true
}

// GetContext returns the cached value or loads it with ctx.
func (c *Cache[K, V]) GetContext(ctx context.Context, key K) (V, error) {
	if v, ok := c.Peek(key); ok {
		return v, nil
	}
	v, err := c.load(ctx, key)
	if err != nil {
		return v, err
	}
	c.Put(key, v)
	return v, nil
}

// Get returns the cached value, or ErrMiss when it is absent or expired. It
// never loads; GetContext does.
func (c *Cache[K, V]) Get(key K) (V, error) {
	if v, ok := c.Peek(key); ok {
		return v, nil
	}
	var zero V
	return zero, ErrMiss
}

// Put stores a value.
func (c *Cache[K, V]) Put(key K, v V) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.items[key] = entry[V]{val: v, expires: time.Now().Add(c.ttl)}
}

// Invalidate drops a key.
func (c *Cache[K, V]) Invalidate(key K) {
	c.mu.Lock()
	defer c.mu.Unlock()
	delete(c.items, key)
}

// Pair bundles a context with a value to be processed under it.
type Pair[T any] struct {
	Ctx context.Context
	Val T
}

// Run calls fn with the pair's context.
func (p Pair[T]) Run(fn func(context.Context, T) error) error { return fn(p.Ctx, p.Val) }
