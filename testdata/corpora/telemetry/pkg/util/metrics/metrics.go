// Package metrics holds OpenTelemetry-shaped instruments: counters and
// histograms whose Add/Record take a context for exemplars.
package metrics

import (
	"context"
	"sort"
	"strings"
	"sync"
	"sync/atomic"

	"example.test/telemetry/pkg/util/tracing"
)

// Counter is a monotonic sum per label set.
type Counter struct {
	Name      string
	mu        sync.Mutex
	values    map[string]float64
	exemplars map[string]string
}

// NewCounter registers a counter.
func NewCounter(name string) *Counter {
	c := &Counter{Name: name, values: map[string]float64{}, exemplars: map[string]string{}}
	registry.add(name, c)
	return c
}

// Add adds v for the labels; the trace in ctx becomes the exemplar.
func (c *Counter) Add(ctx context.Context, v float64, labels ...string) {
	key := strings.Join(labels, ",")
	c.mu.Lock()
	defer c.mu.Unlock()
	c.values[key] += v
	if tid := tracing.TraceID(ctx); tid != "" {
		c.exemplars[key] = tid
	}
}

// Histogram records observations into fixed buckets.
type Histogram struct {
	Name    string
	Buckets []float64
	mu      sync.Mutex
	counts  map[string][]uint64
	sum     map[string]float64
}

// NewHistogram registers a histogram.
func NewHistogram(name string, buckets []float64) *Histogram {
	sort.Float64s(buckets)
	h := &Histogram{Name: name, Buckets: buckets, counts: map[string][]uint64{}, sum: map[string]float64{}}
	registry.add(name, h)
	return h
}

// Record observes v for the labels.
func (h *Histogram) Record(ctx context.Context, v float64, labels ...string) {
	_ = tracing.TraceID(ctx)
	key := strings.Join(labels, ",")
	h.mu.Lock()
	defer h.mu.Unlock()
	cs, ok := h.counts[key]
	if !ok {
		cs = make([]uint64, len(h.Buckets)+1)
		h.counts[key] = cs
	}
	i := sort.SearchFloat64s(h.Buckets, v)
	cs[i]++
	h.sum[key] += v
}

// Gauge is a settable value.
type Gauge struct {
	Name string
	v    atomic.Int64
}

// NewGauge registers a gauge.
func NewGauge(name string) *Gauge {
	g := &Gauge{Name: name}
	registry.add(name, g)
	return g
}

// Set sets the gauge.
func (g *Gauge) Set(v int64) { g.v.Store(v) }

// Inc increments the gauge.
func (g *Gauge) Inc() { g.v.Add(1) }

// Dec decrements the gauge.
func (g *Gauge) Dec() { g.v.Add(-1) }

type reg struct {
	mu   sync.Mutex
	byID map[string]any
}

var registry = &reg{byID: map[string]any{}}

func (r *reg) add(name string, m any) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.byID[name] = m
}

// Names lists registered instruments.
func Names() []string {
	registry.mu.Lock()
	defer registry.mu.Unlock()
	var out []string
	for n := range registry.byID {
		out = append(out, n)
	}
	sort.Strings(out)
	return out
}
