// Package events is an in-process pub/sub used by the Notifier stream.
package events

import (
	"context"
	"sync"
)

// Event is a ledger event delivered to watchers.
type Event struct {
	AccountID string
	Kind      string
	Amount    int64
	At        int64
}

// Broker fans events out to subscribers by account.
type Broker struct {
	mu   sync.Mutex
	subs map[string]map[chan Event]struct{}
}

// NewBroker returns an empty broker.
func NewBroker() *Broker { return &Broker{subs: make(map[string]map[chan Event]struct{})} }

// Subscribe registers a channel for account. The subscription is removed
// when ctx is done.
func (b *Broker) Subscribe(ctx context.Context, account string) <-chan Event {
	ch := make(chan Event, 32)
	b.mu.Lock()
	if b.subs[account] == nil {
		b.subs[account] = make(map[chan Event]struct{})
	}
	b.subs[account][ch] = struct{}{}
	b.mu.Unlock()
	context.AfterFunc(ctx, func() {
		b.mu.Lock()
		delete(b.subs[account], ch)
		b.mu.Unlock()
	})
	return ch
}

// Publish delivers ev to every subscriber of its account without blocking;
// slow subscribers drop events.
func (b *Broker) Publish(ev Event) {
	b.mu.Lock()
	defer b.mu.Unlock()
	for ch := range b.subs[ev.AccountID] {
		select {
		case ch <- ev:
		default:
		}
	}
}
