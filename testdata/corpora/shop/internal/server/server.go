// Package server implements the shop's gRPC services.
package server

import (
	"context"
	"log/slog"
	"net/http"
	"sync"
	"time"

	"golang.org/x/sync/singleflight"

	"example.test/shop/internal/batch"
	"example.test/shop/internal/catalog"
	"example.test/shop/internal/clients"
	"example.test/shop/internal/store"
	"example.test/shop/internal/telemetry"
	"example.test/shop/proto/shoppb"
)

type Deps struct {
	Store        store.Store
	Pricing      *clients.Pricing
	Log          *slog.Logger
	Tracer       telemetry.Tracer
	Meter        telemetry.Meter
	Submit       func(job func(context.Context)) bool
	Audit        *batch.Batcher[store.AuditEvent]
	Refresher    *catalog.Refresher
	WarehouseURL string
	PollEvery    time.Duration
}

// Core is the state shared by all three services.
type Core struct {
	store        store.Store
	pricing      *clients.Pricing
	log          *slog.Logger
	tracer       telemetry.Tracer
	meter        telemetry.Meter
	submit       func(job func(context.Context)) bool
	audit        *batch.Batcher[store.AuditEvent]
	refresher    *catalog.Refresher
	warehouseURL string
	httpClient   *http.Client
	pollEvery    time.Duration

	// baseCtx is the server's lifetime; background work hangs off it.
	baseCtx context.Context

	sf     singleflight.Group
	idem   *idemCache
	events *eventLog
	now    func() time.Time

	// onOrderPlaced is a hook for metrics; tests replace it.
	onOrderPlaced func(ctx context.Context, o store.Order)

	warmOnce sync.Once
	hotSKUs  map[string]store.Product

	locks *memLocks

	// quoteCache serves recent quotes and revalidates them in the background.
	quoteMu    sync.Mutex
	quoteCache map[string]cachedQuote
	sweepOnce  sync.Once

	stopJanitor context.CancelFunc
	janitorDone chan struct{}
}

func NewCore(ctx context.Context, d Deps) *Core {
	c := &Core{
		store:        d.Store,
		pricing:      d.Pricing,
		log:          d.Log,
		tracer:       d.Tracer,
		meter:        d.Meter,
		submit:       d.Submit,
		audit:        d.Audit,
		refresher:    d.Refresher,
		warehouseURL: d.WarehouseURL,
		httpClient:   &http.Client{Timeout: 10 * time.Second},
		pollEvery:    d.PollEvery,
		baseCtx:      ctx,
		idem:         newIdemCache(10 * time.Minute),
		events:       newEventLog(),
		now:          time.Now,
		janitorDone:  make(chan struct{}),
		locks:        newMemLocks(),
		quoteCache:   map[string]cachedQuote{},
	}
	c.onOrderPlaced = func(ctx context.Context, o store.Order) {
		c.meter.Add(ctx, "orders_placed", 1)
		c.meter.Observe(ctx, "last_order_total_cents", float64(o.TotalCents))
	}
	// The janitor is owned by Core and stopped by Close, independent of the
	// ctx we were constructed with.
	jctx, cancel := context.WithCancel(context.Background())
	c.stopJanitor = cancel
	go c.janitor(jctx)
	return c
}

func (c *Core) janitor(ctx context.Context) {
	defer close(c.janitorDone)
	t := time.NewTicker(time.Minute)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case now := <-t.C:
			n := c.idem.purge(now)
			c.events.trim(now.Add(-time.Hour))
			c.log.DebugContext(ctx, "janitor", "purged", n)
		}
	}
}

// Close stops Core's own goroutines; ctx bounds how long we wait.
func (c *Core) Close(ctx context.Context) error {
	c.stopJanitor()
	select {
	case <-c.janitorDone:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// warmHot loads the hot-SKU table once. It is shared by every request, so it
// must not inherit the cancellation of whichever request triggered it.
func (c *Core) warmHot() {
	c.warmOnce.Do(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
		defer cancel()
		m := map[string]store.Product{}
		_ = c.store.ListProducts(ctx, "featured", func(p store.Product) error {
			m[p.SKU] = p
			return nil
		})
		c.hotSKUs = m
	})
}

// memLocks stands in for a distributed lock service (e.g. Redis); Lock and
// Unlock are network calls in production, hence the ctx.
type memLocks struct {
	mu   sync.Mutex
	held map[string]chan struct{}
}

func newMemLocks() *memLocks { return &memLocks{held: map[string]chan struct{}{}} }

func (l *memLocks) Lock(ctx context.Context, key string) error {
	for {
		l.mu.Lock()
		ch, busy := l.held[key]
		if !busy {
			l.held[key] = make(chan struct{})
			l.mu.Unlock()
			return nil
		}
		l.mu.Unlock()
		select {
		case <-ch:
		case <-ctx.Done():
			return ctx.Err()
		}
	}
}

func (l *memLocks) Unlock(ctx context.Context, key string) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	if ch, ok := l.held[key]; ok {
		close(ch)
		delete(l.held, key)
	}
	return nil
}

type idemCache struct {
	mu  sync.Mutex
	ttl time.Duration
	m   map[string]idemEntry
}

type idemEntry struct {
	order *shoppb.Order
	exp   time.Time
}

func newIdemCache(ttl time.Duration) *idemCache {
	return &idemCache{ttl: ttl, m: map[string]idemEntry{}}
}

func (c *idemCache) get(key string) (*shoppb.Order, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	e, ok := c.m[key]
	if !ok || time.Now().After(e.exp) {
		return nil, false
	}
	return e.order, true
}

func (c *idemCache) put(key string, o *shoppb.Order) {
	c.mu.Lock()
	c.m[key] = idemEntry{order: o, exp: time.Now().Add(c.ttl)}
	c.mu.Unlock()
}

func (c *idemCache) purge(now time.Time) int {
	c.mu.Lock()
	defer c.mu.Unlock()
	n := 0
	for k, e := range c.m {
		if now.After(e.exp) {
			delete(c.m, k)
			n++
		}
	}
	return n
}

// eventLog is an in-process log of order status changes.
type eventLog struct {
	mu   sync.Mutex
	evs  []store.OrderEvent
	subs map[string]map[chan store.OrderEvent]struct{}
}

func newEventLog() *eventLog {
	return &eventLog{subs: map[string]map[chan store.OrderEvent]struct{}{}}
}

func (l *eventLog) append(e store.OrderEvent) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.evs = append(l.evs, e)
	for ch := range l.subs[e.CustomerID] {
		select {
		case ch <- e:
		default: // slow subscriber: drop rather than block the writer
		}
	}
}

// subscribe returns a channel of new events for customer and an idempotent
// unsubscribe func that closes it.
func (l *eventLog) subscribe(customer string) (<-chan store.OrderEvent, func()) {
	ch := make(chan store.OrderEvent, 16)
	l.mu.Lock()
	if l.subs[customer] == nil {
		l.subs[customer] = map[chan store.OrderEvent]struct{}{}
	}
	l.subs[customer][ch] = struct{}{}
	l.mu.Unlock()
	var once sync.Once
	return ch, func() {
		once.Do(func() {
			l.mu.Lock()
			delete(l.subs[customer], ch)
			l.mu.Unlock()
			close(ch)
		})
	}
}

func (l *eventLog) since(customer string, t time.Time) []store.OrderEvent {
	l.mu.Lock()
	defer l.mu.Unlock()
	var out []store.OrderEvent
	for _, e := range l.evs {
		if e.CustomerID == customer && e.At.After(t) {
			out = append(out, e)
		}
	}
	return out
}

func (l *eventLog) trim(before time.Time) {
	l.mu.Lock()
	defer l.mu.Unlock()
	i := 0
	for i < len(l.evs) && l.evs[i].At.Before(before) {
		i++
	}
	l.evs = l.evs[i:]
}
