package store

import (
	"context"
	"sync"
	"time"
)

// Remote is the shared cache tier (memcached in production).
type Remote interface {
	Fetch(ctx context.Context, key string) ([]byte, error)
	Store(ctx context.Context, key string, val []byte, ttl time.Duration) error
}

// Cache is a small read-through cache in front of the shared tier.
type Cache struct {
	mu     sync.RWMutex
	local  map[string]cacheEntry
	ttl    time.Duration
	remote Remote
}

type cacheEntry struct {
	val     []byte
	expires time.Time
}

// NewCache returns a cache whose local entries live for ttl. remote may be nil.
func NewCache(ttl time.Duration, remote Remote) *Cache {
	return &Cache{local: make(map[string]cacheEntry), ttl: ttl, remote: remote}
}

// Get is GetContext with a background context.
func (c *Cache) Get(key string) ([]byte, bool) {
	return c.GetContext(context.Background(), key)
}

// GetContext returns the cached value for key, consulting the shared tier on a local miss.
func (c *Cache) GetContext(ctx context.Context, key string) ([]byte, bool) {
	c.mu.RLock()
	e, ok := c.local[key]
	c.mu.RUnlock()
	if ok && time.Now().Before(e.expires) {
		return e.val, true
	}
	if c.remote == nil {
		return nil, false
	}
	val, err := c.remote.Fetch(ctx, key)
	if err != nil || val == nil {
		return nil, false
	}
	c.Set(key, val)
	return val, true
}

// Set stores a value in the local tier only.
func (c *Cache) Set(key string, val []byte) {
	c.mu.Lock()
	c.local[key] = cacheEntry{val: val, expires: time.Now().Add(c.ttl)}
	c.mu.Unlock()
}

// Put stores a value in both tiers.
func (c *Cache) Put(ctx context.Context, key string, val []byte) error {
	c.Set(key, val)
	if c.remote == nil {
		return nil
	}
	return c.remote.Store(ctx, key, val, c.ttl)
}
