// Package store is the control plane's state store: jobs and nodes in SQL,
// a read cache in memory, per-namespace shards, and the dispatch queue.
package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"example.test/controlplane/internal/telemetry"
)

// ErrNotFound is returned when a job does not exist.
var ErrNotFound = errors.New("not found")

var log = telemetry.NewLogger("store")

// Job is the stored form of a job.
type Job struct {
	ID        string
	Namespace string
	Node      string
	Driver    string
	Image     string
	Args      []string
	State     string
	Version   int64
}

// Store is what the API servers need from the state store.
type Store interface {
	GetJob(ctx context.Context, id string) (*Job, error)
	PutJob(ctx context.Context, j *Job) error
	DeleteJob(ctx context.Context, id string) error
	ListJobs(ctx context.Context, namespace string) ([]*Job, error)
}

// SQLStore keeps jobs in a SQL database.
type SQLStore struct {
	db *sql.DB
	id atomic.Pointer[string]

	mu      sync.Mutex
	watches map[string][]chan Event
}

// Open opens the store and applies the schema.
func Open(dsn string) (*SQLStore, error) {
	db, err := sql.Open("pgx", dsn)
	if err != nil {
		return nil, err
	}
	if _, err := db.Exec(schema); err != nil { // OK: ctxless look-alike — Exec without a ctx in the constructor at start-up, not in a request scope.
		return nil, fmt.Errorf("apply schema: %w", err)
	}
	return &SQLStore{db: db, watches: map[string][]chan Event{}}, nil
}

const schema = `CREATE TABLE IF NOT EXISTS jobs (id TEXT PRIMARY KEY, namespace TEXT, node TEXT, driver TEXT, image TEXT, args TEXT, state TEXT, version BIGINT)`

// DB exposes the handle for the node inventory, which shares the database.
func (s *SQLStore) DB() *sql.DB { return s.db }

func (s *SQLStore) GetJob(ctx context.Context, id string) (*Job, error) {
	var j Job
	var args string
	err := s.db.QueryRowContext(ctx,
		`SELECT id, namespace, node, driver, image, args, state, version FROM jobs WHERE id = $1`, id).
		Scan(&j.ID, &j.Namespace, &j.Node, &j.Driver, &j.Image, &args, &j.State, &j.Version)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, ErrNotFound
	}
	if err != nil {
		return nil, err
	}
	j.Args = strings.Fields(args)
	return &j, nil
}

func (s *SQLStore) PutJob(ctx context.Context, j *Job) error {
	_, err := s.db.ExecContext(ctx,
		`INSERT INTO jobs VALUES ($1,$2,$3,$4,$5,$6,$7,$8) ON CONFLICT (id) DO UPDATE SET state = $7, node = $3, version = $8`,
		j.ID, j.Namespace, j.Node, j.Driver, j.Image, strings.Join(j.Args, " "), j.State, j.Version)
	if err == nil {
		s.publish(Event{Type: "put", Job: *j})
	}
	return err
}

func (s *SQLStore) DeleteJob(ctx context.Context, id string) error {
	_, err := s.db.ExecContext(ctx, `DELETE FROM jobs WHERE id = $1`, id)
	if err == nil {
		s.publish(Event{Type: "delete", Job: Job{ID: id}})
	}
	return err
}

func (s *SQLStore) ListJobs(ctx context.Context, namespace string) ([]*Job, error) {
	return s.scan(ctx, `SELECT id, namespace, node, driver, image, args, state, version FROM jobs WHERE namespace = $1`, namespace)
}

// ListByNode lists the jobs placed on node.
func (s *SQLStore) ListByNode(ctx context.Context, node string) ([]*Job, error) {
	log.Debug(ctx, "list by node", "node", node)
	// The listing is used to rebuild the node's view; it must be complete.
	return s.scan(context.TODO(), `SELECT id, namespace, node, driver, image, args, state, version FROM jobs WHERE node = $1`, node)
}

func (s *SQLStore) scan(ctx context.Context, query string, args ...any) ([]*Job, error) {
	rows, err := s.db.QueryContext(ctx, query, args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []*Job
	for rows.Next() {
		var j Job
		var a string
		if err := rows.Scan(&j.ID, &j.Namespace, &j.Node, &j.Driver, &j.Image, &a, &j.State, &j.Version); err != nil {
			return nil, err
		}
		j.Args = strings.Fields(a)
		out = append(out, &j)
	}
	return out, rows.Err()
}

// ID returns the cluster id stored in the database, read once and kept.
func (s *SQLStore) ID(ctx context.Context) (string, error) {
	if p := s.id.Load(); p != nil {
		return *p, nil
	}
	var id string
	if err := s.db.QueryRowContext(ctx, `SELECT value FROM meta WHERE key = 'cluster_id'`).Scan(&id); err != nil {
		return "", err
	}
	s.id.Store(&id)
	return id, nil
}

// Event is a change to a job.
type Event struct {
	Type string
	Job  Job
}

// Subscription is a live feed of job events; Close ends it.
type Subscription struct {
	C      <-chan Event
	cancel context.CancelFunc
}

// Close ends the subscription.
func (s *Subscription) Close() { s.cancel() }

// Watch subscribes to events of namespace. The feed lives until Close or until
// ctx is done.
func (s *SQLStore) Watch(ctx context.Context, namespace string) *Subscription {
	ch := make(chan Event, 64)
	s.mu.Lock()
	s.watches[namespace] = append(s.watches[namespace], ch)
	s.mu.Unlock()
	wctx, cancel := context.WithCancel(ctx)
	go func() {
		<-wctx.Done()
		s.unwatch(namespace, ch)
	}()
	return &Subscription{C: ch, cancel: cancel}
}

func (s *SQLStore) unwatch(namespace string, ch chan Event) {
	s.mu.Lock()
	defer s.mu.Unlock()
	list := s.watches[namespace]
	for i, c := range list {
		if c == ch {
			s.watches[namespace] = append(list[:i], list[i+1:]...)
			close(c)
			return
		}
	}
}

func (s *SQLStore) publish(ev Event) {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, ch := range s.watches[ev.Job.Namespace] {
		select {
		case ch <- ev:
		default: // slow watcher: drop, it will resync
		}
	}
}

// CreateJob inserts j and records its initial placement; if the placement
// cannot be recorded the insert is rolled back.
func (s *SQLStore) CreateJob(ctx context.Context, j *Job, place func(ctx context.Context, j *Job) error) error {
	if err := s.PutJob(ctx, j); err != nil {
		return err
	}
	if err := place(ctx, j); err != nil {
		// The caller's budget may be what ran out: give the undo one of its own.
		rctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		if derr := s.DeleteJob(rctx, j.ID); derr != nil {
			log.Error(ctx, "rollback failed", derr, "job", j.ID)
		}
		return fmt.Errorf("place job %s: %w", j.ID, err)
	}
	return nil
}
