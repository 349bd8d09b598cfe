package store

import (
	"context"
	"database/sql"
	"fmt"
	"log"
	"sync"
	"time"

	"example.test/streams/internal/pubsub"
)

var (
	statsMu    sync.Mutex
	statsCache = map[string]Stats{}
)

// Change is one row of a table's change log.
type Change struct {
	Table   string
	Cursor  string
	Columns map[string]string
	Deleted bool
}

// Journal is the durable event log behind Replay and Publish.
type Journal struct {
	db     *sql.DB
	mu     sync.Mutex
	synced chan int64
	notify chan string
}

// NewJournal returns a journal on db. Run must be started for Synced and Notifications to fire.
func NewJournal(db *sql.DB) *Journal {
	return &Journal{db: db, synced: make(chan int64, 1), notify: make(chan string, 32)}
}

// Append writes events in one transaction and returns the last sequence number written.
func (j *Journal) Append(ctx context.Context, events []pubsub.Event) (int64, error) {
	tx, err := j.db.BeginTx(ctx, nil)
	if err != nil {
		return 0, err
	}
	defer tx.Rollback()
	var last int64
	for _, ev := range events {
		if err := tx.QueryRowContext(ctx,
			`INSERT INTO journal (topic, key, payload) VALUES ($1, $2, $3) RETURNING seq`,
			ev.Topic, ev.Key, ev.Payload).Scan(&last); err != nil {
			return 0, err
		}
	}
	return last, tx.Commit()
}

// Synced announces the highest sequence number known to be on disk after each group commit.
// Group commits happen every few milliseconds while there is traffic; the channel is never closed.
func (j *Journal) Synced() <-chan int64 { return j.synced }

// Notifications delivers the table names of LISTEN/NOTIFY messages from the change-log trigger.
// It is fed by Run and never closed.
func (j *Journal) Notifications() <-chan string { return j.notify }

// Run polls for group commits and change notifications until ctx is done.
func (j *Journal) Run(ctx context.Context) {
	t := time.NewTicker(5 * time.Millisecond)
	defer t.Stop()
	var lastSeq int64
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
		var seq int64
		if err := j.db.QueryRowContext(ctx, `SELECT coalesce(max(seq), 0) FROM journal`).Scan(&seq); err != nil {
			log.Printf("journal: poll: %v", err)
			continue
		}
		if seq != lastSeq {
			lastSeq = seq
			select {
			case j.synced <- seq:
			default:
			}
		}
	}
}

// EventsSince loads up to limit stored events of topic after seq.
func (j *Journal) EventsSince(ctx context.Context, topic string, seq int64, limit int) ([]pubsub.Event, error) {
	rows, err := j.db.QueryContext(ctx,
		`SELECT seq, key, payload, created_at FROM journal WHERE topic = $1 AND seq > $2 ORDER BY seq LIMIT $3`,
		topic, seq, limit)
	if err != nil {
		return nil, fmt.Errorf("events since %d: %w", seq, err)
	}
	defer rows.Close()
	var out []pubsub.Event
	for rows.Next() {
		ev := pubsub.Event{Topic: topic}
		if err := rows.Scan(&ev.Sequence, &ev.Key, &ev.Payload, &ev.Published); err != nil {
			return nil, err
		}
		out = append(out, ev)
	}
	return out, rows.Err()
}

// DeleteTopic drops a topic and its events, returning how many events were dropped.
func (j *Journal) DeleteTopic(ctx context.Context, name string) (int64, error) {
	res, err := j.db.ExecContext(ctx, `DELETE FROM journal WHERE topic = $1`, name)
	if err != nil {
		return 0, err
	}
	n, _ := res.RowsAffected()
	if _, err := j.db.ExecContext(ctx, `DELETE FROM topics WHERE name = $1`, name); err != nil {
		return 0, err
	}
	return n, nil
}

// Changes reads the next batch of a table's change log after cursor. It predates contexts in
// this code base and runs with the pool's statement timeout.
func (j *Journal) Changes(table, cursor string, limit int) ([]Change, error) {
	rows, err := j.db.Query(
		`SELECT cursor, columns, deleted FROM change_log WHERE tbl = $1 AND cursor > $2 ORDER BY cursor LIMIT $3`,
		table, cursor, limit)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	return scanChanges(table, rows)
}

// ChangesContext is Changes with a context.
func (j *Journal) ChangesContext(ctx context.Context, table, cursor string, limit int) ([]Change, error) {
	rows, err := j.db.QueryContext(ctx,
		`SELECT cursor, columns, deleted FROM change_log WHERE tbl = $1 AND cursor > $2 ORDER BY cursor LIMIT $3`,
		table, cursor, limit)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	return scanChanges(table, rows)
}

// OpenSnapshot runs a full-table read; the caller iterates and closes the rows.
func (j *Journal) OpenSnapshot(ctx context.Context, table string) (*sql.Rows, error) {
	return j.db.QueryContext(ctx, `SELECT cursor, columns FROM snapshot_view WHERE tbl = $1`, table)
}

// StreamChanges writes a table's change log after cursor to out, closing out when it is done
// or ctx is.
func (j *Journal) StreamChanges(ctx context.Context, table, cursor string, out chan<- Change) error {
	defer close(out)
	for {
		batch, err := j.ChangesContext(ctx, table, cursor, 500)
		if err != nil {
			return err
		}
		if len(batch) == 0 {
			return nil
		}
		for _, c := range batch {
			select {
			case out <- c:
			case <-ctx.Done():
				return ctx.Err()
			}
		}
		cursor = batch[len(batch)-1].Cursor
	}
}

func scanChanges(table string, rows *sql.Rows) ([]Change, error) {
	var out []Change
	for rows.Next() {
		c := Change{Table: table, Columns: map[string]string{}}
		var cols string
		if err := rows.Scan(&c.Cursor, &cols, &c.Deleted); err != nil {
			return nil, err
		}
		c.Columns["_raw"] = cols
		out = append(out, c)
	}
	return out, rows.Err()
}

// Purge deletes a topic's events before a sequence number.
func (j *Journal) Purge(ctx context.Context, topic string, before int64) (int64, error) {
	res, err := j.db.ExecContext(ctx, `DELETE FROM journal WHERE topic = $1 AND seq < $2`, topic, before)
	if err != nil {
		return 0, err
	}
	return res.RowsAffected()
}
