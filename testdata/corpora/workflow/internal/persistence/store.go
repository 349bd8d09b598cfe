// Package persistence stores workflow histories, shards and task queues in SQL.
package persistence

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"sync"
	"time"
)

// ErrConflict is returned when a conditional write loses a race.
var ErrConflict = errors.New("persistence: condition failed")

// ErrNotFound is returned for a missing workflow.
var ErrNotFound = errors.New("persistence: not found")

// Event is one history event.
type Event struct {
	ID   int64
	Type string
	Data []byte
}

// Task is one queued task.
type Task struct {
	Queue      string
	ID         string
	WorkflowID string
	Input      []byte
}

// Store is the SQL persistence layer.
type Store struct {
	db        *sql.DB
	idOnce    sync.Once
	clusterID string
}

// Open opens the store.
func Open(driver, dsn string) (*Store, error) {
	db, err := sql.Open(driver, dsn)
	if err != nil {
		return nil, err
	}
	return &Store{db: db}, nil
}

// DB exposes the handle for tools.
func (s *Store) DB() *sql.DB { return s.db }

// ClusterID reads the cluster id once and keeps it.
func (s *Store) ClusterID(ctx context.Context) (string, error) {
	var err error
	s.idOnce.Do(func() {
		err = s.db.QueryRowContext(ctx, "SELECT cluster_id FROM cluster_metadata").Scan(&s.clusterID)
	})
	return s.clusterID, err
}

// AppendEvents appends events to a workflow's history.
func (s *Store) AppendEvents(ctx context.Context, shard int32, wf string, evs []Event) (int64, error) {
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return 0, err
	}
	var last int64
	for _, e := range evs {
		if _, err := tx.ExecContext(ctx, "INSERT INTO history(shard, wf, id, type, data) VALUES($1,$2,$3,$4,$5)", shard, wf, e.ID, e.Type, e.Data); err != nil {
			_ = tx.Rollback()
			return 0, fmt.Errorf("append %s: %w", wf, err)
		}
		last = e.ID
	}
	return last, tx.Commit()
}

// LoadEvents loads a workflow's history.
func (s *Store) LoadEvents(ctx context.Context, shard int32, wf string) ([]Event, error) {
	rows, err := s.db.QueryContext(ctx, "SELECT id, type, data FROM history WHERE shard=$1 AND wf=$2 ORDER BY id", shard, wf)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []Event
	for rows.Next() {
		var e Event
		if err := rows.Scan(&e.ID, &e.Type, &e.Data); err != nil {
			return nil, err
		}
		out = append(out, e)
	}
	return out, rows.Err()
}

// LoadMutableState reads a workflow's status row.
func (s *Store) LoadMutableState(ctx context.Context, shard int32, wf string) (string, int64, error) {
	var st string
	var next int64
	err := s.db.QueryRowContext(ctx, "SELECT status, next_event_id FROM executions WHERE shard=$1 AND wf=$2", shard, wf).Scan(&st, &next)
	if errors.Is(err, sql.ErrNoRows) {
		return "", 0, ErrNotFound
	}
	return st, next, err
}

// AcquireShard bumps the shard's range id and returns it.
func (s *Store) AcquireShard(ctx context.Context, shard int32, owner string) (int64, error) {
	var rangeID int64
	err := s.db.QueryRowContext(ctx, "UPDATE shards SET range_id = range_id + 1, owner=$2 WHERE id=$1 RETURNING range_id", shard, owner).Scan(&rangeID)
	return rangeID, err
}

// ReleaseShard gives up a shard.
func (s *Store) ReleaseShard(ctx context.Context, shard int32, rangeID int64) error {
	_, err := s.db.ExecContext(ctx, "UPDATE shards SET owner='' WHERE id=$1 AND range_id=$2", shard, rangeID)
	return err
}

// CreateTasks writes a batch of tasks.
func (s *Store) CreateTasks(ctx context.Context, tasks []Task) error {
	for _, t := range tasks {
		if _, err := s.db.ExecContext(ctx, "INSERT INTO tasks(queue, id, wf, input) VALUES($1,$2,$3,$4)", t.Queue, t.ID, t.WorkflowID, t.Input); err != nil {
			return err
		}
	}
	return nil
}

// DeleteTask removes a task.
func (s *Store) DeleteTask(ctx context.Context, queue, id string) error {
	_, err := s.db.ExecContext(ctx, "DELETE FROM tasks WHERE queue=$1 AND id=$2", queue, id)
	return err
}

// RebuildIndex rebuilds the visibility index of a namespace.
func (s *Store) RebuildIndex(ctx context.Context, ns string) (int64, error) {
	res, err := s.db.ExecContext(ctx, "INSERT INTO visibility SELECT * FROM executions WHERE ns=$1", ns)
	if err != nil {
		return 0, err
	}
	return res.RowsAffected()
}

// WriteVisibility upserts one visibility row.
func (s *Store) WriteVisibility(ctx context.Context, ns, wf, status string) error {
	_, err := s.db.ExecContext(ctx, "INSERT INTO visibility(ns, wf, status, at) VALUES($1,$2,$3,$4)", ns, wf, status, time.Now())
	return err
}

// Close closes the database.
func (s *Store) Close() error { return s.db.Close() }
