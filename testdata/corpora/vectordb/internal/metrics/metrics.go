// Package metrics holds the cluster's instruments. The instrument interfaces
// have the shape of OpenTelemetry's synchronous instruments: the ctx only
// lends its values (exemplars) to the measurement.
package metrics

import (
	"context"
	"sort"
	"strings"
	"sync"

	"example.test/vectordb/internal/log"
)

// Attr is one label of a measurement.
type Attr struct{ K, V string }

// Int64Counter counts events.
type Int64Counter interface {
	Add(ctx context.Context, incr int64, attrs ...Attr)
}

// Float64Histogram records distributions.
type Float64Histogram interface {
	Record(ctx context.Context, v float64, attrs ...Attr)
}

type counter struct {
	name     string
	mu       sync.Mutex
	vals     map[string]int64
	exemplar string
}

// NewCounter registers a counter.
func NewCounter(name string) Int64Counter {
	c := &counter{name: name, vals: map[string]int64{}}
	register(name, c)
	return c
}

func key(attrs []Attr) string {
	parts := make([]string, 0, len(attrs))
	for _, a := range attrs {
		parts = append(parts, a.K+"="+a.V)
	}
	sort.Strings(parts)
	return strings.Join(parts, ",")
}

func (c *counter) Add(ctx context.Context, incr int64, attrs ...Attr) {
	k := key(attrs)
	c.mu.Lock()
	c.vals[k] += incr
	if id := log.TraceID(ctx); id != "" {
		c.exemplar = id
	}
	c.mu.Unlock()
}

type histogram struct {
	name     string
	mu       sync.Mutex
	counts   map[string][]float64
	exemplar string
}

// NewHistogram registers a histogram.
func NewHistogram(name string) Float64Histogram {
	h := &histogram{name: name, counts: map[string][]float64{}}
	register(name, h)
	return h
}

func (h *histogram) Record(ctx context.Context, v float64, attrs ...Attr) {
	k := key(attrs)
	h.mu.Lock()
	h.counts[k] = append(h.counts[k], v)
	if id := log.TraceID(ctx); id != "" {
		h.exemplar = id
	}
	h.mu.Unlock()
}

var (
	regMu    sync.Mutex
	registry = map[string]any{}
)

func register(name string, inst any) {
	regMu.Lock()
	registry[name] = inst
	regMu.Unlock()
}

// The cluster's instruments.
var (
	ProxyRequests      = NewCounter("proxy_requests_total")
	ProxyRejected      = NewCounter("proxy_rate_limited_total")
	SearchLatency      = NewHistogram("search_latency_ms")
	FlushedSegments    = NewCounter("datanode_flushed_segments_total")
	LoadedSegments     = NewCounter("querynode_loaded_segments_total")
	WALAppended        = NewCounter("wal_appended_messages_total")
	MetaCacheMisses    = NewCounter("proxy_meta_cache_miss_total")
	CompactionDuration = NewHistogram("compaction_duration_ms")
)
