// Package cache is the Redis read-through cache used by the service layer.
package cache

import (
	"context"
	"errors"
	"log/slog"
	"time"

	"github.com/redis/go-redis/v9"
)

// Cache namespaces keys under a prefix.
type Cache struct {
	rdb    *redis.Client
	prefix string
	log    *slog.Logger
}

// New connects to Redis at addr.
func New(addr, prefix string, log *slog.Logger) *Cache {
	return &Cache{
		rdb:    redis.NewClient(&redis.Options{Addr: addr, ReadTimeout: time.Second, WriteTimeout: time.Second}),
		prefix: prefix,
		log:    log,
	}
}

// Get returns the cached bytes for key; ok is false on a miss.
func (c *Cache) Get(ctx context.Context, key string) (b []byte, ok bool, err error) {
	b, err = c.rdb.Get(ctx, c.prefix+key).Bytes()
	if errors.Is(err, redis.Nil) {
		return nil, false, nil
	}
	if err != nil {
		return nil, false, err
	}
	return b, true, nil
}

// Set stores b under key for ttl.
func (c *Cache) Set(ctx context.Context, key string, b []byte, ttl time.Duration) error {
	return c.rdb.Set(ctx, c.prefix+key, b, ttl).Err()
}

// Delete removes keys.
func (c *Cache) Delete(ctx context.Context, keys ...string) error {
	return c.rdb.Del(ctx, c.full(keys)...).Err()
}

// Invalidate removes keys on write paths. Failures are logged and swallowed so that a cache
// outage never fails a write.
func (c *Cache) Invalidate(keys ...string) {
	ctx, cancel := context.WithTimeout(context.Background(), 500*time.Millisecond)
	defer cancel()
	if err := c.rdb.Del(ctx, c.full(keys)...).Err(); err != nil {
		c.log.Warn("cache invalidate failed", "keys", keys, "err", err)
	}
}

// Ping checks connectivity.
func (c *Cache) Ping(ctx context.Context) error { return c.rdb.Ping(ctx).Err() }

// Close closes the client.
func (c *Cache) Close() error { return c.rdb.Close() }

func (c *Cache) full(keys []string) []string {
	out := make([]string, len(keys))
	for i, k := range keys {
		out[i] = c.prefix + k
	}
	return out
}
