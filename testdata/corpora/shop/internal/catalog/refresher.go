// Package catalog keeps a periodically refreshed in-memory view of products.
package catalog

import (
	"context"
	"log/slog"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"example.test/shop/internal/store"
)

// categoryAliases is built once on first use.
var categoryAliases = sync.OnceValue(func() map[string]string {
	m := map[string]string{}
	for _, pair := range strings.Fields("tees:apparel shirts:apparel mugs:kitchen cups:kitchen books:media") {
		k, v, _ := strings.Cut(pair, ":")
		m[k] = v
	}
	return m
})

// Canonical maps a user-supplied category name to its canonical form.
func Canonical(category string) string {
	if c, ok := categoryAliases()[strings.ToLower(category)]; ok {
		return c
	}
	return category
}

type snapshot struct {
	bySKU map[string]store.Product
	at    time.Time
}

// Refresher reloads the catalog in the background on its own schedule.
type Refresher struct {
	src     store.Catalog
	every   time.Duration
	timeout time.Duration
	log     *slog.Logger
	snap    atomic.Pointer[snapshot]
	kick    chan struct{}
}

func NewRefresher(src store.Catalog, every time.Duration, log *slog.Logger) *Refresher {
	return &Refresher{src: src, every: every, timeout: every / 2, log: log, kick: make(chan struct{}, 1)}
}

// Run refreshes until ctx (the process lifetime) is done.
func (r *Refresher) Run(ctx context.Context) {
	r.refresh(ctx)
	t := time.NewTicker(r.every)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		case <-r.kick:
		}
		r.refresh(ctx)
	}
}

func (r *Refresher) refresh(ctx context.Context) {
	ctx, cancel := context.WithTimeout(ctx, r.timeout)
	defer cancel()
	all, err := r.src.AllProducts(ctx)
	if err != nil {
		r.log.WarnContext(ctx, "catalog refresh failed", "err", err)
		return
	}
	m := make(map[string]store.Product, len(all))
	for _, p := range all {
		m[p.SKU] = p
	}
	r.snap.Store(&snapshot{bySKU: m, at: time.Now()})
}

// Trigger asks for an early refresh without waiting for it.
func (r *Refresher) Trigger() {
	select {
	case r.kick <- struct{}{}:
	default:
	}
}

func (r *Refresher) Lookup(sku string) (store.Product, bool) {
	s := r.snap.Load()
	if s == nil {
		return store.Product{}, false
	}
	p, ok := s.bySKU[sku]
	return p, ok
}

// Age reports how stale the snapshot is.
func (r *Refresher) Age() time.Duration {
	if s := r.snap.Load(); s != nil {
		return time.Since(s.at)
	}
	return -1
}
