package telemetry

import (
	"context"
	"math"
	"sync"
	"sync/atomic"
)

// Attr is a metric attribute.
type Attr struct{ Key, Value string }

// Int64Counter has the shape of an OpenTelemetry Int64Counter.
type Int64Counter interface {
	Add(ctx context.Context, incr int64, attrs ...Attr)
}

// Float64Histogram has the shape of an OpenTelemetry Float64Histogram.
type Float64Histogram interface {
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
	JobsSubmitted  Int64Counter     = &counter{name: "jobs_submitted_total"}
	JobsFailed     Int64Counter     = &counter{name: "jobs_failed_total"}
	RPCPanics      Int64Counter     = &counter{name: "rpc_panics_total"}
	NodeHeartbeats Int64Counter     = &counter{name: "node_heartbeats_total"}
	RPCLatency     Float64Histogram = &histogram{name: "rpc_latency_seconds"}
)
