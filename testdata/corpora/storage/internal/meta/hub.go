package meta

import (
	"context"
	"database/sql"
	"sync"

	"example.test/storage/gen/storagepb"
	"google.golang.org/protobuf/proto"
)

// RegionChange is one entry of the change log.
type RegionChange struct {
	Region uint64
	Index  uint64
	State  *storagepb.Region
}

// EventLog persists region changes and fans them out to watchers.
type EventLog struct {
	db  *sql.DB
	hub *Hub
}

// Publish persists ch and notifies the watchers.
func (l *EventLog) Publish(ctx context.Context, ch RegionChange) error {
	b, err := proto.Marshal(ch.State)
	if err != nil {
		return err
	}
	if _, err := l.db.ExecContext(ctx, "INSERT INTO region_events (region, idx, state) VALUES (?, ?, ?)", ch.Region, ch.Index, b); err != nil {
		return err
	}
	l.hub.broadcast(&storagepb.RegionEvent{Region: ch.State})
	return nil
}

// Replay calls fn with every event after since.
func (l *EventLog) Replay(ctx context.Context, since uint64, fn func(*storagepb.RegionEvent) bool) error {
	rows, err := l.db.QueryContext(ctx, "SELECT state FROM region_events WHERE idx > ? ORDER BY idx", since)
	if err != nil {
		return err
	}
	defer rows.Close()
	for rows.Next() {
		var b []byte
		if err := rows.Scan(&b); err != nil {
			return err
		}
		r := &storagepb.Region{}
		if err := proto.Unmarshal(b, r); err != nil {
			return err
		}
		if !fn(&storagepb.RegionEvent{Region: r}) {
			return nil
		}
	}
	return rows.Err()
}

// Flush checkpoints the log.
func (l *EventLog) Flush(ctx context.Context) error {
	_, err := l.db.ExecContext(ctx, "PRAGMA wal_checkpoint(TRUNCATE)")
	return err
}

// Hub fans region events out to subscriptions.
type Hub struct {
	log  *EventLog
	mu   sync.Mutex
	subs map[*Subscription]struct{}
}

// Subscription receives region events on C until Close.
type Subscription struct {
	C      chan *storagepb.RegionEvent
	in     chan *storagepb.RegionEvent
	cancel context.CancelFunc
	hub    *Hub
}

// Subscribe returns a subscription replaying events after since, then
// following new ones.
func (h *Hub) Subscribe(since uint64) *Subscription {
	ctx, cancel := context.WithCancel(context.Background())
	sub := &Subscription{
		C:      make(chan *storagepb.RegionEvent, 64),
		in:     make(chan *storagepb.RegionEvent, 64),
		cancel: cancel,
		hub:    h,
	}
	h.mu.Lock()
	h.subs[sub] = struct{}{}
	h.mu.Unlock()
	go h.pump(ctx, sub, since)
	return sub
}

func (h *Hub) pump(ctx context.Context, sub *Subscription, since uint64) {
	defer close(sub.C)
	send := func(ev *storagepb.RegionEvent) bool {
		select {
		case sub.C <- ev:
			return true
		case <-ctx.Done():
			return false
		}
	}
	if err := h.log.Replay(ctx, since, send); err != nil {
		return
	}
	for {
		select {
		case <-ctx.Done():
			return
		case ev := <-sub.in:
			if !send(ev) {
				return
			}
		}
	}
}

func (h *Hub) broadcast(ev *storagepb.RegionEvent) {
	h.mu.Lock()
	defer h.mu.Unlock()
	for sub := range h.subs {
		select {
		case sub.in <- ev:
		default: // slow watcher: it will resync
		}
	}
}

// Close ends the subscription.
func (s *Subscription) Close() {
	s.cancel()
	s.hub.mu.Lock()
	delete(s.hub.subs, s)
	s.hub.mu.Unlock()
}
