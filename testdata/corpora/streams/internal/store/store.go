// Package store is the Postgres side of the feed service: topic metadata, the event journal
// and the change log tables that Tail follows.
package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strings"
	"time"
)

// ErrNotFound is returned when a topic does not exist.
var ErrNotFound = errors.New("store: not found")

// ErrConflict is returned when a topic with the same name already exists.
var ErrConflict = errors.New("store: conflict")

// Topic is a row of the topics table.
type Topic struct {
	Name           string
	Partitions     int32
	RetentionHours int32
	Owner          string
	CreatedAt      time.Time
}

// Stats summarises a topic.
type Stats struct {
	Events      int64
	Subscribers int64
	Bytes       int64
}

// Store wraps the connection pool.
type Store struct {
	db *sql.DB
}

// Open connects to the database. The driver is linked in by the deployment build.
func Open(dsn string) (*Store, error) {
	db, err := sql.Open("postgres", dsn)
	if err != nil {
		return nil, err
	}
	db.SetMaxOpenConns(32)
	db.SetConnMaxIdleTime(5 * time.Minute)
	return &Store{db: db}, nil
}

// New wraps an existing pool (tests, tools).
func New(db *sql.DB) *Store { return &Store{db: db} }

// DB exposes the pool for the few handlers that run their own statements.
func (s *Store) DB() *sql.DB { return s.db }

// Close closes the pool.
func (s *Store) Close() error { return s.db.Close() }

// IsConflict reports whether err is a unique-constraint violation.
func IsConflict(err error) bool {
	return errors.Is(err, ErrConflict) || (err != nil && strings.Contains(err.Error(), "SQLSTATE 23505"))
}

// GetTopic loads one topic.
func (s *Store) GetTopic(ctx context.Context, name string) (Topic, error) {
	var t Topic
	err := s.db.QueryRowContext(ctx,
		`SELECT name, partitions, retention_hours, owner, created_at FROM topics WHERE name = $1`, name,
	).Scan(&t.Name, &t.Partitions, &t.RetentionHours, &t.Owner, &t.CreatedAt)
	if errors.Is(err, sql.ErrNoRows) {
		return Topic{}, ErrNotFound
	}
	if err != nil {
		return Topic{}, fmt.Errorf("get topic %q: %w", name, err)
	}
	return t, nil
}

// ListTopics pages through the topics of an owner ("" for all), ordered by name.
func (s *Store) ListTopics(ctx context.Context, owner, after string, limit int) ([]Topic, error) {
	rows, err := s.db.QueryContext(ctx,
		`SELECT name, partitions, retention_hours, owner, created_at FROM topics
		 WHERE ($1 = '' OR owner = $1) AND name > $2 ORDER BY name LIMIT $3`, owner, after, limit)
	if err != nil {
		return nil, fmt.Errorf("list topics: %w", err)
	}
	defer rows.Close()
	var out []Topic
	for rows.Next() {
		var t Topic
		if err := rows.Scan(&t.Name, &t.Partitions, &t.RetentionHours, &t.Owner, &t.CreatedAt); err != nil {
			return nil, err
		}
		out = append(out, t)
	}
	return out, rows.Err()
}

// CreateTopic inserts a topic; it returns an error IsConflict recognises when the name is taken.
func (s *Store) CreateTopic(ctx context.Context, t Topic) error {
	_, err := s.db.ExecContext(ctx,
		`INSERT INTO topics (name, partitions, retention_hours, owner, created_at) VALUES ($1, $2, $3, $4, now())`,
		t.Name, t.Partitions, t.RetentionHours, t.Owner)
	return err
}

// UpdateRetention changes a topic's retention and returns the updated row.
func (s *Store) UpdateRetention(ctx context.Context, name string, hours int32) (Topic, error) {
	res, err := s.db.ExecContext(ctx, `UPDATE topics SET retention_hours = $2 WHERE name = $1`, name, hours)
	if err != nil {
		return Topic{}, err
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return Topic{}, ErrNotFound
	}
	return s.GetTopic(ctx, name)
}

// RenameTopic renames a topic in place.
func (s *Store) RenameTopic(ctx context.Context, from, to string) error {
	_, err := s.db.ExecContext(ctx, `UPDATE topics SET name = $2 WHERE name = $1`, from, to)
	return err
}

// SetOwner transfers a topic.
func (s *Store) SetOwner(ctx context.Context, name, owner string) error {
	_, err := s.db.ExecContext(ctx, `UPDATE topics SET owner = $2 WHERE name = $1`, name, owner)
	return err
}

// TopicStats aggregates the journal for one topic.
func (s *Store) TopicStats(ctx context.Context, name string) (Stats, error) {
	var st Stats
	err := s.db.QueryRowContext(ctx,
		`SELECT count(*), coalesce(sum(length(payload)), 0) FROM journal WHERE topic = $1`, name,
	).Scan(&st.Events, &st.Bytes)
	return st, err
}

// CountSubscribers counts the durable consumers of a topic.
func (s *Store) CountSubscribers(ctx context.Context, name string) (int64, error) {
	var n int64
	err := s.db.QueryRowContext(ctx, `SELECT count(*) FROM consumers WHERE topic = $1`, name).Scan(&n)
	return n, err
}

// CachedStats returns the stats the refresher computed last, without touching the database.
func (s *Store) CachedStats(name string) (Stats, error) {
	statsMu.Lock()
	defer statsMu.Unlock()
	st, ok := statsCache[name]
	if !ok {
		return Stats{}, ErrNotFound
	}
	return st, nil
}

// Consumer is a durable consumer of a topic.
type Consumer struct {
	Name          string
	Topic         string
	AckedSequence int64
}

// ConstraintError reports a violated table constraint (the driver's error, unwrapped).
type ConstraintError struct {
	Constraint string
	Err        error
}

func (e *ConstraintError) Error() string {
	return fmt.Sprintf("constraint %s: %v", e.Constraint, e.Err)
}
func (e *ConstraintError) Unwrap() error { return e.Err }

// ListConsumers lists a topic's durable consumers.
func (s *Store) ListConsumers(ctx context.Context, topic string) ([]Consumer, error) {
	rows, err := s.db.QueryContext(ctx, `SELECT name, acked_seq FROM consumers WHERE topic = $1 ORDER BY name`, topic)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []Consumer
	for rows.Next() {
		c := Consumer{Topic: topic}
		if err := rows.Scan(&c.Name, &c.AckedSequence); err != nil {
			return nil, err
		}
		out = append(out, c)
	}
	return out, rows.Err()
}

// ResetConsumer moves a consumer's position. The ack_not_ahead constraint refuses positions
// past the end of the journal.
func (s *Store) ResetConsumer(ctx context.Context, topic, name string, seq int64) (Consumer, error) {
	_, err := s.db.ExecContext(ctx, `UPDATE consumers SET acked_seq = $3 WHERE topic = $1 AND name = $2`, topic, name, seq)
	if err != nil && strings.Contains(err.Error(), "ack_not_ahead") {
		return Consumer{}, &ConstraintError{Constraint: "ack_not_ahead", Err: err}
	}
	if err != nil {
		return Consumer{}, err
	}
	return Consumer{Name: name, Topic: topic, AckedSequence: seq}, nil
}
