package queue

import (
	"context"
	"database/sql"
	"errors"
	"time"

	"example.test/torture/internal/ctxkit"
)

// PGSource is a Source backed by a Postgres table used as a queue.
type PGSource struct {
	db   *sql.DB
	poll time.Duration
}

// NewPGSource returns a source polling db every poll.
func NewPGSource(db *sql.DB, poll time.Duration) *PGSource {
	return &PGSource{db: db, poll: poll}
}

// Next returns the next unclaimed message, waiting for one if necessary.
func (p *PGSource) Next(ctx context.Context) ([]byte, error) {
	for {
		var raw []byte
		err := p.db.QueryRowContext(ctx,
			`UPDATE rotation_queue SET claimed_at = now() WHERE id = (
			   SELECT id FROM rotation_queue WHERE claimed_at IS NULL ORDER BY id LIMIT 1 FOR UPDATE SKIP LOCKED
			 ) RETURNING payload`).Scan(&raw)
		if err == nil {
			return raw, nil
		}
		if !errors.Is(err, sql.ErrNoRows) {
			return nil, err
		}
		if err := ctxkit.Sleep(ctx, p.poll); err != nil {
			return nil, err
		}
	}
}

// Ack deletes a handled message.
func (p *PGSource) Ack(ctx context.Context, raw []byte) error {
	_, err := p.db.ExecContext(ctx, `DELETE FROM rotation_queue WHERE payload = $1`, raw)
	return err
}
