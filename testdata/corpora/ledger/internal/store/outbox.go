package store

import (
	"context"
	"fmt"
	"time"
)

// OutboxMessage is a pending event to be relayed.
type OutboxMessage struct {
	ID       int64
	Topic    string
	Payload  []byte
	Attempts int
}

// ClaimOutbox returns up to limit unsent messages, oldest first.
func (s *Store) ClaimOutbox(ctx context.Context, limit int) ([]OutboxMessage, error) {
	rows, err := s.db.QueryContext(ctx,
		`SELECT id, topic, payload, attempts FROM outbox WHERE sent_at IS NULL ORDER BY id LIMIT ?`, limit)
	if err != nil {
		return nil, fmt.Errorf("claim outbox: %w", err)
	}
	defer rows.Close()
	var out []OutboxMessage
	for rows.Next() {
		var m OutboxMessage
		if err := rows.Scan(&m.ID, &m.Topic, &m.Payload, &m.Attempts); err != nil {
			return nil, err
		}
		out = append(out, m)
	}
	return out, rows.Err()
}

// MarkSent records successful delivery.
func (s *Store) MarkSent(ctx context.Context, id int64) error {
	_, err := s.db.ExecContext(ctx, `UPDATE outbox SET sent_at = ? WHERE id = ?`, time.Now().Unix(), id)
	return err
}

// MarkFailed bumps the attempt counter.
func (s *Store) MarkFailed(ctx context.Context, id int64) error {
	_, err := s.db.ExecContext(ctx, `UPDATE outbox SET attempts = attempts + 1 WHERE id = ?`, id)
	return err
}
