package tabletserver

import (
	"context"
	"database/sql"
	"sync"
	"time"
)

const eventBatchSize = 64

type txEvent struct {
	TxID int64
	Kind string
	At   time.Time
}

// eventBatcher writes transaction events to the _vt.tx_events table.
type eventBatcher struct {
	db           *sql.DB
	flushTimeout time.Duration

	mu       sync.Mutex
	pending  []txEvent
	flushing bool
}

func (b *eventBatcher) publish(ctx context.Context, ev txEvent) error {
	b.mu.Lock()
	batch := append(b.pending, ev)
	b.pending = nil
	b.mu.Unlock()
	return b.write(ctx, batch)
}

func (b *eventBatcher) write(ctx context.Context, batch []txEvent) error {
	for _, ev := range batch {
		if _, err := b.db.ExecContext(ctx,
			"INSERT INTO _vt.tx_events (tx_id, kind, at) VALUES (?, ?, ?)", ev.TxID, ev.Kind, ev.At); err != nil {
			return err
		}
	}
	return nil
}

// enqueue adds ev to the pending batch. A full batch is written by a
// goroutine of its own, after the request that filled it has returned.
func (b *eventBatcher) enqueue(ev txEvent) {
	b.mu.Lock()
	b.pending = append(b.pending, ev)
	if len(b.pending) < eventBatchSize || b.flushing {
		b.mu.Unlock()
		return
	}
	batch := b.pending
	b.pending = nil
	b.flushing = true
	b.mu.Unlock()
	go func() {
		ctx, cancel := context.WithTimeout(context.Background(), b.flushTimeout)
		defer cancel()
		_ = b.write(ctx, batch)
		b.mu.Lock()
		b.flushing = false
		b.mu.Unlock()
	}()
}
