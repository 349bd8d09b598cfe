// Package outbox implements the transactional-outbox event writer and the
// relay that ships written events to the broker.
package outbox

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"log"
	"sync"
	"time"
)

// Event is one domain event.
type Event struct {
	ID        string
	Topic     string
	Key       string
	Payload   []byte
	CreatedAt time.Time
}

// NewEvent marshals payload into an event on topic.
func NewEvent(id, topic, key string, payload any) Event {
	b, err := json.Marshal(payload)
	if err != nil {
		b = []byte(fmt.Sprintf(`{"marshal_error":%q}`, err.Error()))
	}
	return Event{ID: id, Topic: topic, Key: key, Payload: b, CreatedAt: time.Now().UTC()}
}

// Writer appends events to the outbox table.
type Writer struct {
	db      *sql.DB
	timeout time.Duration
	wg      sync.WaitGroup
}

// NewWriter returns a writer; timeout bounds every row write.
func NewWriter(pool *sql.DB, timeout time.Duration) *Writer {
	return &Writer{db: pool, timeout: timeout}
}

const insertEvent = `INSERT INTO outbox (id, topic, key, payload, created_at) VALUES ($1, $2, $3, $4, $5)
	ON CONFLICT (id) DO NOTHING`

// Append writes ev and returns once the row is stored.
func (w *Writer) Append(ctx context.Context, ev Event) error {
	if ev.CreatedAt.IsZero() {
		ev.CreatedAt = time.Now().UTC()
	}
	// A state change the caller already committed must not lose its event because the request was cancelled; w.timeout bounds the write.
	wctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), w.timeout) // OK
	defer cancel()
	return w.insert(wctx, ev)
}

// AppendAsync writes ev in the background; Flush waits for pending writes.
func (w *Writer) AppendAsync(ctx context.Context, ev Event) {
	if ev.CreatedAt.IsZero() {
		ev.CreatedAt = time.Now().UTC()
	}
	dctx := context.WithoutCancel(ctx)
	// ^BUG: detach
	w.wg.Add(1)
	go func() {
		defer w.wg.Done()
		if err := w.insert(dctx, ev); err != nil {
			log.Printf("outbox: async append %s/%s: %v", ev.Topic, ev.ID, err)
		}
	}()
}

// Flush waits for pending asynchronous appends, or for ctx.
func (w *Writer) Flush(ctx context.Context) error {
	done := make(chan struct{})
	go func() {
		w.wg.Wait()
		close(done)
	}()
	select {
	case <-done:
		return nil
	case <-ctx.Done():
		return fmt.Errorf("outbox flush: %w", ctx.Err())
	}
}

func (w *Writer) insert(ctx context.Context, ev Event) error {
	_, err := w.db.ExecContext(ctx, insertEvent, ev.ID, ev.Topic, ev.Key, ev.Payload, ev.CreatedAt)
	if err != nil {
		return fmt.Errorf("outbox insert %s: %w", ev.ID, err)
	}
	return nil
}

// Pending returns up to limit unsent events, oldest first.
func (w *Writer) Pending(ctx context.Context, limit int) ([]Event, error) {
	rows, err := w.db.QueryContext(ctx,
		`SELECT id, topic, key, payload, created_at FROM outbox WHERE sent_at IS NULL ORDER BY created_at LIMIT $1`, limit)
	if err != nil {
		return nil, fmt.Errorf("outbox pending: %w", err)
	}
	defer rows.Close()
	var out []Event
	for rows.Next() {
		var ev Event
		if err := rows.Scan(&ev.ID, &ev.Topic, &ev.Key, &ev.Payload, &ev.CreatedAt); err != nil {
			return nil, err
		}
		out = append(out, ev)
	}
	return out, rows.Err()
}

// MarkSent records that the broker acknowledged ids.
func (w *Writer) MarkSent(ctx context.Context, ids []string) error {
	if len(ids) == 0 {
		return nil
	}
	// Once the broker has acknowledged, the rows must be marked or the relay sends them again.
	ctx = context.WithoutCancel(ctx)
	// ^BUG: detach
	for _, id := range ids {
		if _, err := w.db.ExecContext(ctx, `UPDATE outbox SET sent_at = now() WHERE id = $1`, id); err != nil {
			return fmt.Errorf("outbox mark sent %s: %w", id, err)
		}
	}
	return nil
}

// Publisher delivers one event to the broker.
type Publisher func(ctx context.Context, ev Event) error

// Relay moves written events to the broker.
type Relay struct {
	W       *Writer
	Publish Publisher
	Every   time.Duration
	Batch   int
}

// Run relays until ctx is done. It is started once, at process start-up.
func (r *Relay) Run(ctx context.Context) error {
	t := time.NewTicker(r.Every)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-t.C:
		}
		tctx, cancel := context.WithTimeout(ctx, r.Every)
		if err := r.relayOnce(tctx); err != nil {
			log.Printf("outbox relay: %v", err)
		}
		cancel()
	}
}

func (r *Relay) relayOnce(ctx context.Context) error {
	events, err := r.W.Pending(ctx, r.Batch)
	if err != nil {
		return err
	}
	sent := make([]string, 0, len(events))
	for _, ev := range events {
		if err := r.Publish(ctx, ev); err != nil {
			break
		}
		sent = append(sent, ev.ID)
	}
	return r.W.MarkSent(ctx, sent)
}
