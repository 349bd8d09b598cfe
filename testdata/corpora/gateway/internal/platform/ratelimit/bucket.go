// Package ratelimit implements the token buckets used by the gateway's
// admission middleware.
package ratelimit

import (
	"context"
	"math"
	"sync"
	"time"
)

// Bucket is a classic token bucket: it refills at rate tokens per second up to
// burst tokens. Callers either ask how long they would have to wait (Take),
// block until a token is theirs (Wait), or block until a token is theirs or ctx
// is done (WaitContext).
type Bucket struct {
	mu     sync.Mutex
	rate   float64
	burst  float64
	tokens float64
	last   time.Time
	now    func() time.Time
}

// NewBucket returns a full bucket.
func NewBucket(rps float64, burst int) *Bucket {
	return &Bucket{rate: rps, burst: float64(burst), tokens: float64(burst), last: time.Now(), now: time.Now}
}

// SetRate changes the refill rate, keeping the current fill level.
func (b *Bucket) SetRate(rps float64) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.refill()
	b.rate = rps
}

// Take consumes one token and returns how long the caller must wait before the
// token is really available (zero if it is available now).
func (b *Bucket) Take() time.Duration {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.refill()
	b.tokens--
	if b.tokens >= 0 {
		return 0
	}
	if b.rate <= 0 {
		return time.Duration(math.MaxInt64)
	}
	return time.Duration(-b.tokens / b.rate * float64(time.Second))
}

// Allow consumes a token if one is available now.
func (b *Bucket) Allow() bool {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.refill()
	if b.tokens < 1 {
		return false
	}
	b.tokens--
	return true
}

// Wait blocks until a token is available.
func (b *Bucket) Wait() {
	if d := b.Take(); d > 0 {
		time.Sleep(d) // OK
	}
}

// WaitContext blocks until a token is available or ctx is done. A token taken
// for a caller that gave up is handed back.
func (b *Bucket) WaitContext(ctx context.Context) error {
	d := b.Take()
	if d <= 0 {
		return nil
	}
	if dl, ok := ctx.Deadline(); ok && time.Until(dl) < d {
		b.giveBack()
		return context.DeadlineExceeded
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		b.giveBack()
		return ctx.Err()
	case <-t.C:
		return nil
	}
}

func (b *Bucket) giveBack() {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.tokens = math.Min(b.tokens+1, b.burst)
}

func (b *Bucket) refill() {
	now := b.now()
	elapsed := now.Sub(b.last).Seconds()
	b.last = now
	b.tokens = math.Min(b.burst, b.tokens+elapsed*b.rate)
}
