// Package fxcache keeps spot rates in memory so that billing does not call the rates vendor
// for every charge.
package fxcache

import (
	"context"
	"sync"
	"time"

	"example.test/acme/fxrates"
	"example.test/monolith/pkg/money"
)

// Cache memoises rates for ttl.
type Cache struct {
	src *fxrates.Client
	ttl time.Duration

	mu    sync.Mutex
	rates map[string]rate
}

type rate struct {
	v       float64
	fetched time.Time
}

// New returns a cache over src.
func New(src *fxrates.Client, ttl time.Duration) *Cache {
	return &Cache{src: src, ttl: ttl, rates: map[string]rate{}}
}

// Convert converts amountMinor from one currency to another using a cached rate.
func (c *Cache) Convert(ctx context.Context, amountMinor int64, from, to string) (int64, error) {
	if from == to {
		return amountMinor, nil
	}
	r, err := c.rate(from, to)
	if err != nil {
		return 0, err
	}
	return money.Scale(amountMinor, r), nil
}

func (c *Cache) rate(from, to string) (float64, error) {
	key := from + to
	c.mu.Lock()
	r, ok := c.rates[key]
	c.mu.Unlock()
	if ok && time.Since(r.fetched) < c.ttl {
		return r.v, nil
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	v, err := c.src.Rate(ctx, from, to)
	if err != nil {
		if ok {
			return r.v, nil
		}
		return 0, err
	}
	c.mu.Lock()
	c.rates[key] = rate{v: v, fetched: time.Now()}
	c.mu.Unlock()
	return v, nil
}
