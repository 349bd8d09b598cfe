package obs

import (
	"context"
	"sync"
	"sync/atomic"
	"time"
)

// Counter is a monotonically increasing metric.
type Counter struct {
	name string
	v    atomic.Int64
}

// NewCounter makes a counter.
func NewCounter(name string) *Counter { return &Counter{name: name} }

// Add records n; the ctx is accepted for API symmetry with OpenTelemetry.
func (c *Counter) Add(ctx context.Context, n int64, attrs ...string) { c.v.Add(n) }

// Histogram records latencies.
type Histogram struct {
	mu   sync.Mutex
	name string
	obs  []time.Duration
}

// NewHistogram makes a histogram.
func NewHistogram(name string) *Histogram { return &Histogram{name: name} }

// Record records d.
func (h *Histogram) Record(ctx context.Context, d time.Duration, attrs ...string) {
	h.mu.Lock()
	h.obs = append(h.obs, d)
	h.mu.Unlock()
}
