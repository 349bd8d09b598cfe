// Package jobs holds the background workers of the monolith: the outbox relay, the session
// reaper, the cache warmer, the payment-reminder cron and the order-events consumer.
package jobs

import (
	"context"
	"database/sql"
	"log/slog"
	"time"

	"example.test/monolith/internal/platform/events"
)

// Outbox stores messages for asynchronous channels in the same database as the caller's data.
type Outbox struct {
	db *sql.DB
}

// NewOutbox returns the outbox.
func NewOutbox(db *sql.DB) *Outbox { return &Outbox{db: db} }

// Enqueue stores one message and returns its id.
func (o *Outbox) Enqueue(ctx context.Context, channel, accountID string, payload []byte) (string, error) {
	var id string
	err := o.db.QueryRowContext(ctx,
		`INSERT INTO outbox (channel, account_id, payload) VALUES ($1, $2, $3) RETURNING id`, channel, accountID, payload).Scan(&id)
	return id, err
}

// Relay moves outbox rows to Kafka.
type Relay struct {
	db    *sql.DB
	pub   *events.Publisher
	every time.Duration
	tick  time.Duration
	log   *slog.Logger
}

// NewRelay returns the relay.
func NewRelay(db *sql.DB, pub *events.Publisher, log *slog.Logger) *Relay {
	return &Relay{db: db, pub: pub, every: time.Second, tick: 10 * time.Second, log: log}
}

// Run relays until ctx is done.
func (r *Relay) Run(ctx context.Context) {
	t := time.NewTicker(r.every)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
		tctx, cancel := context.WithTimeout(ctx, r.tick) // OK
		n, err := r.relayBatch(tctx)
		cancel()
		if err != nil {
			r.log.Warn("outbox relay batch failed", "err", err)
		} else if n > 0 {
			r.log.Debug("outbox relayed", "count", n)
		}
	}
}

func (r *Relay) relayBatch(ctx context.Context) (int, error) {
	tx, err := r.db.BeginTx(ctx, nil)
	if err != nil {
		return 0, err
	}
	defer tx.Rollback()
	rows, err := tx.QueryContext(ctx,
		`SELECT id, channel, account_id, payload FROM outbox WHERE relayed_at IS NULL ORDER BY id LIMIT 100 FOR UPDATE SKIP LOCKED`)
	if err != nil {
		return 0, err
	}
	type msg struct {
		id, channel, account string
		payload              []byte
	}
	var batch []msg
	for rows.Next() {
		var m msg
		if err := rows.Scan(&m.id, &m.channel, &m.account, &m.payload); err != nil {
			rows.Close()
			return 0, err
		}
		batch = append(batch, m)
	}
	rows.Close()
	for _, m := range batch {
		if err := r.pub.Publish(ctx, "notify."+m.channel, m.account, m.payload); err != nil {
			return 0, err
		}
		if _, err := tx.ExecContext(ctx, `UPDATE outbox SET relayed_at = now() WHERE id = $1`, m.id); err != nil {
			return 0, err
		}
	}
	return len(batch), tx.Commit()
}
