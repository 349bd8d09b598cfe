// Package cache holds a short-lived balance cache in front of the store.
package cache

import (
	"context"
	"sync"
	"time"

	"golang.org/x/sync/singleflight"
)

// Loader loads a balance from the source of truth.
type Loader func(ctx context.Context, accountID string) (int64, string, error)

type entry struct {
	balance  int64
	currency string
	expires  time.Time
}

type result struct {
	balance  int64
	currency string
}

// Balances is a TTL cache with request coalescing.
type Balances struct {
	load    Loader
	ttl     time.Duration
	loadTTL time.Duration

	mu    sync.RWMutex
	items map[string]entry
	group singleflight.Group

	stop     chan struct{}
	stopOnce sync.Once
	done     chan struct{}
}

// NewBalances starts a cache with a janitor goroutine; call Close to stop it.
func NewBalances(load Loader, ttl time.Duration) *Balances {
	b := &Balances{
		load:    load,
		ttl:     ttl,
		loadTTL: 3 * time.Second,
		items:   make(map[string]entry),
		stop:    make(chan struct{}),
		done:    make(chan struct{}),
	}
	go b.janitor()
	return b
}

// Get returns the cached balance or loads it. Concurrent misses for the same
// account share one load. The shared load is detached from any single
// caller's cancellation (so one impatient caller cannot fail everyone) but
// is bounded by loadTTL; each caller still stops waiting when its own ctx
// is done.
func (b *Balances) Get(ctx context.Context, accountID string) (int64, string, error) {
	b.mu.RLock()
	e, ok := b.items[accountID]
	b.mu.RUnlock()
	if ok && time.Now().Before(e.expires) {
		return e.balance, e.currency, nil
	}

	ch := b.group.DoChan(accountID, func() (any, error) {
		lctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), b.loadTTL)
		defer cancel()
		bal, cur, err := b.load(lctx, accountID)
		if err != nil {
			return nil, err
		}
		b.mu.Lock()
		b.items[accountID] = entry{balance: bal, currency: cur, expires: time.Now().Add(b.ttl)}
		b.mu.Unlock()
		return result{bal, cur}, nil
	})
	select {
	case <-ctx.Done():
		return 0, "", context.Cause(ctx)
	case r := <-ch:
		if r.Err != nil {
			return 0, "", r.Err
		}
		res := r.Val.(result)
		return res.balance, res.currency, nil
	}
}

// Invalidate drops an account from the cache.
func (b *Balances) Invalidate(accountID string) {
	b.mu.Lock()
	delete(b.items, accountID)
	b.mu.Unlock()
}

func (b *Balances) janitor() {
	defer close(b.done)
	t := time.NewTicker(b.ttl)
	defer t.Stop()
	for {
		select {
		case <-b.stop:
			return
		case now := <-t.C:
			b.mu.Lock()
			for k, e := range b.items {
				if now.After(e.expires) {
					delete(b.items, k)
				}
			}
			b.mu.Unlock()
		}
	}
}

// Close stops the janitor and waits for it.
func (b *Balances) Close() {
	b.stopOnce.Do(func() { close(b.stop) })
	<-b.done
}
