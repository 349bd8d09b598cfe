package store

import (
	"context"
	"database/sql"
	"fmt"
)

// Journal is the events table, partitioned by topic.
type Journal struct {
	db *sql.DB
}

// NewJournal returns a Journal over db.
func NewJournal(db *sql.DB) *Journal { return &Journal{db: db} }

// StoredEvent is a row of events.
type StoredEvent struct {
	ID       string
	Topic    string
	Payload  []byte
	Sequence int64
}

// Range returns up to limit stored events of topic from sequence from.
func (j *Journal) Range(ctx context.Context, topic string, from int64, limit int) ([]StoredEvent, error) {
	rows, err := j.db.QueryContext(ctx,
		`SELECT id, payload, sequence FROM events WHERE topic = $1 AND sequence >= $2 ORDER BY sequence LIMIT $3`,
		topic, from, limit)
	if err != nil {
		return nil, fmt.Errorf("journal range: %w", err)
	}
	defer rows.Close()
	var out []StoredEvent
	for rows.Next() {
		e := StoredEvent{Topic: topic}
		if err := rows.Scan(&e.ID, &e.Payload, &e.Sequence); err != nil {
			return nil, fmt.Errorf("journal range: %w", err)
		}
		out = append(out, e)
	}
	return out, rows.Err()
}

// Append stores one event.
func (j *Journal) Append(ctx context.Context, topic, key string, payload []byte, seq int64) error {
	_, err := j.db.ExecContext(ctx,
		`INSERT INTO events (topic, key, payload, sequence) VALUES ($1, $2, $3, $4)`, topic, key, payload, seq)
	if err != nil {
		return fmt.Errorf("journal append: %w", err)
	}
	return nil
}

// Purge deletes a topic's events before a sequence number.
func (j *Journal) Purge(ctx context.Context, topic string, before int64) (int64, error) {
	res, err := j.db.ExecContext(ctx, `DELETE FROM events WHERE topic = $1 AND sequence < $2`, topic, before)
	if err != nil {
		return 0, fmt.Errorf("purge %s: %w", topic, err)
	}
	return res.RowsAffected()
}
