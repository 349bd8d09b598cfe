// Package events publishes stock events through a transactional outbox and
// fans them out to in-process subscribers (the WatchStock streams).
package events

import (
	"context"
	"database/sql"
	"encoding/json"
	"log/slog"
	"sync"
	"time"
)

// Event is a change of stock.
type Event struct {
	Type      string    `json:"type"`
	SKU       string    `json:"sku"`
	Warehouse string    `json:"warehouse,omitempty"`
	Quantity  int64     `json:"quantity"`
	At        time.Time `json:"at"`
}

// Sender delivers drained outbox rows to the message bus.
type Sender func(ctx context.Context, payload []byte) error

// Publisher owns the outbox and the subscriber set.
type Publisher struct {
	db      *sql.DB
	send    Sender
	log     *slog.Logger
	backoff time.Duration

	mu   sync.Mutex
	subs map[*subscription]struct{}
	kick chan struct{}
}

type subscription struct {
	skus map[string]bool
	ch   chan Event
}

// NewPublisher returns a Publisher writing to db's outbox table.
func NewPublisher(db *sql.DB, send Sender, log *slog.Logger) *Publisher {
	return &Publisher{
		db:      db,
		send:    send,
		log:     log,
		backoff: 2 * time.Second,
		subs:    map[*subscription]struct{}{},
		kick:    make(chan struct{}, 1),
	}
}

// Publish appends evt to the outbox and notifies local subscribers.
func (p *Publisher) Publish(ctx context.Context, evt Event) error {
	if evt.At.IsZero() {
		evt.At = time.Now().UTC()
	}
	payload, err := json.Marshal(evt)
	if err != nil {
		return err
	}
	if _, err := p.db.ExecContext(ctx, `INSERT INTO outbox (payload) VALUES ($1)`, payload); err != nil {
		return err
	}
	p.fanout(evt)
	select {
	case p.kick <- struct{}{}:
	default:
	}
	return nil
}

func (p *Publisher) fanout(evt Event) {
	p.mu.Lock()
	defer p.mu.Unlock()
	for s := range p.subs {
		if !s.skus[evt.SKU] {
			continue
		}
		select {
		case s.ch <- evt:
		default: // slow subscriber: it will catch up from its poll
		}
	}
}

// Subscribe returns a channel of events for skus and a func that ends the
// subscription.
func (p *Publisher) Subscribe(skus []string) (<-chan Event, func()) {
	s := &subscription{skus: map[string]bool{}, ch: make(chan Event, 64)}
	for _, sku := range skus {
		s.skus[sku] = true
	}
	p.mu.Lock()
	p.subs[s] = struct{}{}
	p.mu.Unlock()
	return s.ch, func() {
		p.mu.Lock()
		delete(p.subs, s)
		p.mu.Unlock()
	}
}

// Run drains the outbox until ctx is done. main starts it once.
func (p *Publisher) Run(ctx context.Context, interval time.Duration) {
	t := time.NewTicker(interval)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		case <-p.kick:
		}
		if err := p.drain(ctx, 100); err != nil {
			p.log.Warn("outbox drain failed", "err", err)
			time.Sleep(p.backoff) // OK
		}
	}
}

// Flush drains whatever is left in the outbox; used on shutdown.
func (p *Publisher) Flush(ctx context.Context) error {
	return p.drain(ctx, 1000)
}

func (p *Publisher) drain(ctx context.Context, batch int) error {
	rows, err := p.db.QueryContext(ctx, `SELECT id, payload FROM outbox ORDER BY id LIMIT $1`, batch)
	if err != nil {
		return err
	}
	type row struct {
		id      int64
		payload []byte
	}
	var pending []row
	for rows.Next() {
		var r row
		if err := rows.Scan(&r.id, &r.payload); err != nil {
			rows.Close()
			return err
		}
		pending = append(pending, r)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return err
	}
	for _, r := range pending {
		if err := p.send(ctx, r.payload); err != nil {
			return err
		}
		if _, err := p.db.ExecContext(ctx, `DELETE FROM outbox WHERE id = $1`, r.id); err != nil {
			return err
		}
	}
	return nil
}
