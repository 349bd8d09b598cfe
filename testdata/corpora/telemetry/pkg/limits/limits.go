// Package limits holds per-tenant overrides and the ingestion rate limiter.
package limits

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"sync"
	"time"

	"example.test/telemetry/pkg/util/log"
)

// Limits are one tenant's overrides.
type Limits struct {
	IngestionRateBytes int64         `json:"ingestion_rate_bytes"`
	IngestionBurst     int64         `json:"ingestion_burst_bytes"`
	MaxTracesPerUser   int           `json:"max_traces_per_user"`
	MaxBytesPerTrace   int           `json:"max_bytes_per_trace"`
	RetentionHours     int           `json:"retention_hours"`
	MaxSearchDuration  time.Duration `json:"max_search_duration"`
}

// Provider answers a tenant's limits.
type Provider interface {
	Limits(ctx context.Context, tenant string) Limits
}

// Static is a fixed set of overrides.
type Static struct {
	Defaults  Limits
	PerTenant map[string]Limits
}

// Limits implements Provider.
func (s *Static) Limits(_ context.Context, tenant string) Limits {
	if l, ok := s.PerTenant[tenant]; ok {
		return l
	}
	return s.Defaults
}

// Runtime reloads overrides from the runtime-config endpoint; Limits answers
// from memory.
type Runtime struct {
	URL      string
	Defaults Limits
	Period   time.Duration
	Timeout  time.Duration

	client  *http.Client
	mu      sync.RWMutex
	current map[string]Limits
}

// NewRuntime returns a runtime-config provider.
func NewRuntime(url string, defaults Limits) *Runtime {
	return &Runtime{URL: url, Defaults: defaults, Period: 10 * time.Second, Timeout: 5 * time.Second, client: &http.Client{}, current: map[string]Limits{}}
}

// Limits implements Provider.
func (r *Runtime) Limits(_ context.Context, tenant string) Limits {
	r.mu.RLock()
	defer r.mu.RUnlock()
	if l, ok := r.current[tenant]; ok {
		return l
	}
	return r.Defaults
}

// Run reloads the overrides until ctx is done.
func (r *Runtime) Run(ctx context.Context) {
	t := time.NewTicker(r.Period)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
			lctx, cancel := context.WithTimeout(ctx, r.Timeout)
			if err := r.reload(lctx); err != nil {
				log.Warn(ctx, "reloading runtime config", "err", err)
			}
			cancel()
		}
	}
}

func (r *Runtime) reload(ctx context.Context) error {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, r.URL, nil)
	if err != nil {
		return err
	}
	resp, err := r.client.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return fmt.Errorf("runtime config: %s", resp.Status)
	}
	var next map[string]Limits
	if err := json.NewDecoder(resp.Body).Decode(&next); err != nil {
		return err
	}
	r.mu.Lock()
	r.current = next
	r.mu.Unlock()
	return nil
}

// RateLimiter is a per-tenant token bucket.
type RateLimiter struct {
	mu      sync.Mutex
	buckets map[string]*bucket
}

type bucket struct {
	tokens float64
	last   time.Time
}

// NewRateLimiter returns an empty limiter.
func NewRateLimiter() *RateLimiter { return &RateLimiter{buckets: map[string]*bucket{}} }

// AllowN takes n tokens from the tenant's bucket refilled at rate per second.
func (l *RateLimiter) AllowN(tenant string, now time.Time, rate, burst float64, n int) bool {
	l.mu.Lock()
	defer l.mu.Unlock()
	b, ok := l.buckets[tenant]
	if !ok {
		b = &bucket{tokens: burst, last: now}
		l.buckets[tenant] = b
	}
	b.tokens += now.Sub(b.last).Seconds() * rate
	if b.tokens > burst {
		b.tokens = burst
	}
	b.last = now
	if b.tokens < float64(n) {
		return false
	}
	b.tokens -= float64(n)
	return true
}
