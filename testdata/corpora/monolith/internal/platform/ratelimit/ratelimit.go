// Package ratelimit is a per-key token bucket.
package ratelimit

import (
	"context"
	"sync"
	"time"
)

type bucket struct {
	tokens float64
	last   time.Time
}

// Limiter hands out tokens per key.
type Limiter struct {
	mu      sync.Mutex
	buckets map[string]*bucket
	rate    float64 // tokens per second
	burst   float64
	penalty time.Duration
}

// New returns a limiter allowing rate requests per second per key with the given burst.
func New(rate float64, burst int) *Limiter {
	return &Limiter{buckets: map[string]*bucket{}, rate: rate, burst: float64(burst), penalty: 250 * time.Millisecond}
}

// Allow takes a token for key if one is available.
func (l *Limiter) Allow(key string) bool {
	l.mu.Lock()
	defer l.mu.Unlock()
	now := time.Now()
	b, ok := l.buckets[key]
	if !ok {
		b = &bucket{tokens: l.burst, last: now}
		l.buckets[key] = b
	}
	b.tokens += now.Sub(b.last).Seconds() * l.rate
	if b.tokens > l.burst {
		b.tokens = l.burst
	}
	b.last = now
	if b.tokens < 1 {
		return false
	}
	b.tokens--
	return true
}

// Wait blocks until a token for key is available or ctx is done.
func (l *Limiter) Wait(ctx context.Context, key string) error {
	for !l.Allow(key) {
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(time.Duration(float64(time.Second) / l.rate)): // OK
		}
	}
	return nil
}

// Penalty is how long a client that ignores its quota is slowed down.
func (l *Limiter) Penalty() time.Duration { return l.penalty }

// Sweep drops idle buckets; run it from a background goroutine.
func (l *Limiter) Sweep(ctx context.Context, every time.Duration) {
	t := time.NewTicker(every)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case now := <-t.C:
			l.mu.Lock()
			for k, b := range l.buckets {
				if now.Sub(b.last) > 10*time.Minute {
					delete(l.buckets, k)
				}
			}
			l.mu.Unlock()
		}
	}
}
