package obs

import (
	"context"
	"sync"
	"sync/atomic"
)

// Counter is a monotonically increasing metric.
type Counter struct {
	name string
	v    atomic.Int64
}

// Add records n; ctx is accepted for exemplars and not otherwise used.
func (c *Counter) Add(ctx context.Context, n int64) { c.v.Add(n) }

// Value returns the current count.
func (c *Counter) Value() int64 { return c.v.Load() }

// Histogram keeps a running sum and count.
type Histogram struct {
	mu         sync.Mutex
	sum, count float64
}

// Record adds one observation.
func (h *Histogram) Record(ctx context.Context, v float64) {
	h.mu.Lock()
	h.sum += v
	h.count++
	h.mu.Unlock()
}

var (
	registryMu sync.Mutex
	registry   = map[string]*Counter{}
)

// NewCounter registers a counter.
func NewCounter(name string) *Counter {
	registryMu.Lock()
	defer registryMu.Unlock()
	c := &Counter{name: name}
	registry[name] = c
	return c
}
