package kv

import (
	"context"
	"errors"
	"sync"
	"sync/atomic"
)

// ConfigStore answers cluster configuration lookups.
type ConfigStore interface {
	Lookup(ctx context.Context, key string) (string, error)
}

// ErrNoConfig is returned for unknown configuration keys.
var ErrNoConfig = errors.New("kv: no such config key")

// StaticConfig is a fixed configuration, from flags.
type StaticConfig map[string]string

func (c StaticConfig) Lookup(_ context.Context, key string) (string, error) {
	if v, ok := c[key]; ok {
		return v, nil
	}
	return "", ErrNoConfig
}

// WatchedConfig is a configuration kept up to date by a watch on the meta
// service; lookups answer from the last snapshot in memory.
type WatchedConfig struct {
	mu   sync.Mutex
	snap atomic.Pointer[map[string]string]
}

// Replace installs a new snapshot.
func (c *WatchedConfig) Replace(m map[string]string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.snap.Store(&m)
}

func (c *WatchedConfig) Lookup(_ context.Context, key string) (string, error) {
	m := c.snap.Load()
	if m == nil {
		return "", ErrNoConfig
	}
	if v, ok := (*m)[key]; ok {
		return v, nil
	}
	return "", ErrNoConfig
}
