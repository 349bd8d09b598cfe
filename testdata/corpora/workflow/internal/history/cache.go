package history

import (
	"context"
	"sync"
	"time"

	"example.test/workflow/internal/persistence"
)

type cacheEntry struct {
	events []persistence.Event
	at     time.Time
}

// EventCache is a read-through cache of workflow histories.
type EventCache struct {
	mu      sync.Mutex
	entries map[string]cacheEntry
	ttl     time.Duration
	store   *persistence.Store
}

// NewEventCache makes a cache.
func NewEventCache(store *persistence.Store, ttl time.Duration) *EventCache {
	return &EventCache{entries: map[string]cacheEntry{}, ttl: ttl, store: store}
}

// Get returns the history of wf, loading it on a miss or after expiry.
func (c *EventCache) Get(shard int32, wf string) ([]persistence.Event, error) {
	c.mu.Lock()
	e, ok := c.entries[wf]
	c.mu.Unlock()
	if ok && time.Since(e.at) < c.ttl {
		return e.events, nil
	}
	evs, err := c.store.LoadEvents(context.Background(), shard, wf) // OK: ctxbackground — the root is reported at the handler's call of Get, not here
	if err != nil {
		return nil, err
	}
	c.mu.Lock()
	c.entries[wf] = cacheEntry{events: evs, at: time.Now()}
	c.mu.Unlock()
	return evs, nil
}

// Put stores the history of wf.
func (c *EventCache) Put(wf string, evs []persistence.Event) {
	c.mu.Lock()
	c.entries[wf] = cacheEntry{events: evs, at: time.Now()}
	c.mu.Unlock()
}
