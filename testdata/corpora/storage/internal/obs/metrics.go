package obs

import (
	"context"
	"math"
	"sync"
	"sync/atomic"
)

// Attr is a metric attribute.
type Attr struct{ Key, Value string }

// Counter mirrors the shape of an OpenTelemetry Int64Counter.
type Counter interface {
	Add(ctx context.Context, incr int64, attrs ...Attr)
}

// Histogram mirrors the shape of an OpenTelemetry Float64Histogram.
type Histogram interface {
	Record(ctx context.Context, v float64, attrs ...Attr)
}

type counter struct {
	name string
	n    atomic.Int64
}

func (c *counter) Add(_ context.Context, incr int64, _ ...Attr) { c.n.Add(incr) }

type histogram struct {
	name string
	mu   sync.Mutex
	sum  float64
	max  float64
	n    int64
}

func (h *histogram) Record(_ context.Context, v float64, _ ...Attr) {
	h.mu.Lock()
	h.sum += v
	h.max = math.Max(h.max, v)
	h.n++
	h.mu.Unlock()
}

var (
	regMu      sync.Mutex
	counters   = map[string]*counter{}
	histograms = map[string]*histogram{}
)

// NewCounter returns the process-wide counter called name.
func NewCounter(name string) Counter {
	regMu.Lock()
	defer regMu.Unlock()
	if c, ok := counters[name]; ok {
		return c
	}
	c := &counter{name: name}
	counters[name] = c
	return c
}

// NewHistogram returns the process-wide histogram called name.
func NewHistogram(name string) Histogram {
	regMu.Lock()
	defer regMu.Unlock()
	if h, ok := histograms[name]; ok {
		return h
	}
	h := &histogram{name: name}
	histograms[name] = h
	return h
}
