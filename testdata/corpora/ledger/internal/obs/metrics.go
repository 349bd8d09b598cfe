package obs

import (
	"sync"
	"sync/atomic"
	"time"
)

// Counter is a monotonically increasing counter.
type Counter struct{ v atomic.Int64 }

func (c *Counter) Inc()         { c.v.Add(1) }
func (c *Counter) Add(n int64)  { c.v.Add(n) }
func (c *Counter) Value() int64 { return c.v.Load() }

// Histogram is a deliberately tiny latency summary.
type Histogram struct {
	mu    sync.Mutex
	count int64
	sum   time.Duration
	max   time.Duration
}

func (h *Histogram) Observe(d time.Duration) {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.count++
	h.sum += d
	if d > h.max {
		h.max = d
	}
}

// Registry groups named metrics. It is created lazily on first use.
type Registry struct {
	mu         sync.Mutex
	counters   map[string]*Counter
	histograms map[string]*Histogram
}

var registry = sync.OnceValue(func() *Registry {
	return &Registry{counters: map[string]*Counter{}, histograms: map[string]*Histogram{}}
})

// C returns the counter with the given name, creating it if needed.
func C(name string) *Counter {
	r := registry()
	r.mu.Lock()
	defer r.mu.Unlock()
	c, ok := r.counters[name]
	if !ok {
		c = &Counter{}
		r.counters[name] = c
	}
	return c
}

// H returns the histogram with the given name, creating it if needed.
func H(name string) *Histogram {
	r := registry()
	r.mu.Lock()
	defer r.mu.Unlock()
	h, ok := r.histograms[name]
	if !ok {
		h = &Histogram{}
		r.histograms[name] = h
	}
	return h
}

// Since records the elapsed time since start under name.
func Since(name string, start time.Time) { H(name).Observe(time.Since(start)) }
