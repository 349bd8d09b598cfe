// Package store is the Postgres access layer of the relay: topics, consumers, export jobs and
// the notification inbox.
package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strings"
	"time"
)

// ErrNotFound is returned when a row does not exist.
var ErrNotFound = errors.New("store: not found")

// Store wraps the relay database.
type Store struct {
	db *sql.DB
}

// New returns a Store over db.
func New(db *sql.DB) *Store { return &Store{db: db} }

// DB exposes the pool for the handlers that run their own queries.
func (s *Store) DB() *sql.DB { return s.db }

// Topic is a row of topics.
type Topic struct {
	Name           string
	Partitions     int32
	RetentionHours int32
	Owner          string
}

// Topic loads one topic.
func (s *Store) Topic(ctx context.Context, name string) (*Topic, error) {
	t := &Topic{Name: name}
	err := s.db.QueryRowContext(ctx,
		`SELECT partitions, retention_hours, owner FROM topics WHERE name = $1`, name).
		Scan(&t.Partitions, &t.RetentionHours, &t.Owner)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, ErrNotFound
	}
	if err != nil {
		return nil, fmt.Errorf("load topic %s: %w", name, err)
	}
	return t, nil
}

// CreateTopic inserts a topic.
func (s *Store) CreateTopic(ctx context.Context, t *Topic) error {
	_, err := s.db.ExecContext(ctx,
		`INSERT INTO topics (name, partitions, retention_hours, owner) VALUES ($1, $2, $3, $4)`,
		t.Name, t.Partitions, t.RetentionHours, t.Owner)
	return err
}

// DropTopic deletes a topic and its events and returns how many events were dropped.
func (s *Store) DropTopic(ctx context.Context, name string, force bool) (int64, error) {
	q := `DELETE FROM events WHERE topic = $1 AND NOT EXISTS (SELECT 1 FROM consumers WHERE topic = $1)`
	if force {
		q = `DELETE FROM events WHERE topic = $1`
	}
	res, err := s.db.ExecContext(ctx, q, name)
	if err != nil {
		return 0, err
	}
	if _, err := s.db.ExecContext(ctx, `DELETE FROM topics WHERE name = $1`, name); err != nil {
		return 0, err
	}
	return res.RowsAffected()
}

// SetRetention changes a topic's retention.
func (s *Store) SetRetention(ctx context.Context, name string, hours int32) (*Topic, error) {
	if _, err := s.db.ExecContext(ctx,
		`UPDATE topics SET retention_hours = $2 WHERE name = $1`, name, hours); err != nil {
		return nil, err
	}
	return s.Topic(ctx, name)
}

// Stats counts a topic's events and bytes.
func (s *Store) Stats(ctx context.Context, name string) (events, bytes int64, err error) {
	err = s.db.QueryRowContext(ctx,
		`SELECT count(*), coalesce(sum(length(payload)), 0) FROM events WHERE topic = $1`, name).
		Scan(&events, &bytes)
	return events, bytes, err
}

// Consumer is a row of consumers.
type Consumer struct {
	Name  string
	Topic string
	Acked int64
}

// Consumers lists a topic's consumers.
func (s *Store) Consumers(ctx context.Context, topic string) ([]Consumer, error) {
	rows, err := s.db.QueryContext(ctx,
		`SELECT name, acked_sequence FROM consumers WHERE topic = $1 ORDER BY name`, topic)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []Consumer
	for rows.Next() {
		c := Consumer{Topic: topic}
		if err := rows.Scan(&c.Name, &c.Acked); err != nil {
			return nil, err
		}
		out = append(out, c)
	}
	return out, rows.Err()
}

// ResetConsumer moves a consumer's acked sequence.
func (s *Store) ResetConsumer(ctx context.Context, topic, name string, to int64) error {
	_, err := s.db.ExecContext(ctx,
		`UPDATE consumers SET acked_sequence = $3 WHERE topic = $1 AND name = $2`, topic, name, to)
	return err
}

// Ack records that a consumer has processed everything up to seq.
func (s *Store) Ack(ctx context.Context, topic, consumer string, seq int64) error {
	_, err := s.db.ExecContext(ctx,
		`UPDATE consumers SET acked_sequence = greatest(acked_sequence, $3) WHERE topic = $1 AND name = $2`,
		topic, consumer, seq)
	return err
}

// Position returns the last change-log position of a table.
func (s *Store) Position(ctx context.Context, table string) (int64, error) {
	var pos int64
	err := s.db.QueryRowContext(ctx,
		`SELECT coalesce(max(position), 0) FROM change_log WHERE table_name = $1`, table).Scan(&pos)
	return pos, err
}

// Job is an export job.
type Job struct {
	ID    string
	Table string
	State string
	Rows  int64
}

// Job loads an export job.
func (s *Store) Job(ctx context.Context, id string) (*Job, error) {
	j := &Job{ID: id}
	err := s.db.QueryRowContext(ctx,
		`SELECT table_name, state, rows FROM export_jobs WHERE id = $1`, id).Scan(&j.Table, &j.State, &j.Rows)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, ErrNotFound
	}
	return j, err
}

// CancelJob marks an export job cancelled.
func (s *Store) CancelJob(ctx context.Context, id string) (*Job, error) {
	if _, err := s.db.ExecContext(ctx,
		`UPDATE export_jobs SET state = 'cancelled' WHERE id = $1 AND state IN ('queued', 'running')`, id); err != nil {
		return nil, err
	}
	return s.Job(ctx, id)
}

// SaveRecords stores records of a bulk load.
func (s *Store) SaveRecords(ctx context.Context, table string, positions []int64, cols []string) error {
	if len(positions) == 0 {
		return nil
	}
	var b strings.Builder
	args := make([]any, 0, 3*len(positions))
	for i := range positions {
		if i > 0 {
			b.WriteString(", ")
		}
		fmt.Fprintf(&b, "($%d, $%d, $%d)", 3*i+1, 3*i+2, 3*i+3)
		args = append(args, table, positions[i], cols[i])
	}
	_, err := s.db.ExecContext(ctx, `INSERT INTO imported_rows (table_name, position, columns) VALUES `+b.String(), args...)
	return err
}

// Audit writes an audit row. Callers pass a context of their own: the row must be written even
// when the request that caused it is gone.
func (s *Store) Audit(ctx context.Context, actor, action, subject string) error {
	_, err := s.db.ExecContext(ctx,
		`INSERT INTO audit (at, actor, action, subject) VALUES ($1, $2, $3, $4)`,
		time.Now().UTC(), actor, action, subject)
	return err
}
