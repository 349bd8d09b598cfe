// Package store is the control plane's resource store: typed mesh resources kept in a SQL
// database, with optimistic concurrency on a per-resource version and in-process watches.
package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"sync"
	"sync/atomic"
)

var (
	// ErrNotFound is returned when a resource does not exist.
	ErrNotFound = errors.New("resource not found")
	// ErrConflict is returned when the expected version does not match.
	ErrConflict = errors.New("resource version conflict")
)

// Key names a resource.
type Key struct {
	Mesh, Type, Name string
}

func (k Key) String() string { return k.Mesh + "/" + k.Type + "/" + k.Name }

// Resource is a stored mesh resource.
type Resource struct {
	Key
	Version int64
	Labels  map[string]string
	Spec    []byte
}

// Event is a change seen by a watch.
type Event struct {
	Kind     string // "put" or "delete"
	Resource Resource
	Revision int64
}

type watcher struct {
	mesh, typ string
	ch        chan Event
}

// Store is a SQL-backed resource store.
type Store struct {
	db *sql.DB

	mu       sync.Mutex
	watchers map[int]*watcher
	nextID   int

	rev       atomic.Int64
	clusterID atomic.Pointer[string]
}

// New wraps an open database.
func New(db *sql.DB) *Store {
	return &Store{db: db, watchers: map[int]*watcher{}}
}

// Open opens the database and checks it is reachable.
func Open(driver, dsn string) (*Store, error) {
	db, err := sql.Open(driver, dsn)
	if err != nil {
		return nil, err
	}
	return New(db), nil
}

// Get reads one resource.
func (s *Store) Get(ctx context.Context, k Key) (Resource, error) {
	var (
		r      Resource
		labels []byte
	)
	row := s.db.QueryRowContext(ctx,
		`SELECT version, labels, spec FROM resources WHERE mesh = $1 AND type = $2 AND name = $3`,
		k.Mesh, k.Type, k.Name)
	if err := row.Scan(&r.Version, &labels, &r.Spec); err != nil {
		if errors.Is(err, sql.ErrNoRows) {
			return Resource{}, ErrNotFound
		}
		return Resource{}, fmt.Errorf("get %s: %w", k, err)
	}
	r.Key = k
	_ = json.Unmarshal(labels, &r.Labels)
	return r, nil
}

// List reads every resource of a type in a mesh.
func (s *Store) List(ctx context.Context, mesh, typ string) ([]Resource, int64, error) {
	rows, err := s.db.QueryContext(ctx,
		`SELECT name, version, labels, spec FROM resources WHERE mesh = $1 AND type = $2 ORDER BY name`, mesh, typ)
	if err != nil {
		return nil, 0, err
	}
	defer rows.Close()
	var out []Resource
	for rows.Next() {
		r := Resource{Key: Key{Mesh: mesh, Type: typ}}
		var labels []byte
		if err := rows.Scan(&r.Name, &r.Version, &labels, &r.Spec); err != nil {
			return nil, 0, err
		}
		_ = json.Unmarshal(labels, &r.Labels)
		out = append(out, r)
	}
	return out, s.rev.Load(), rows.Err()
}

// Create inserts a new resource at version 1.
func (s *Store) Create(ctx context.Context, r Resource) (Resource, error) {
	labels, _ := json.Marshal(r.Labels)
	_, err := s.db.ExecContext(ctx,
		`INSERT INTO resources (mesh, type, name, version, labels, spec) VALUES ($1, $2, $3, 1, $4, $5)`,
		r.Mesh, r.Type, r.Name, labels, r.Spec)
	if err != nil {
		return Resource{}, fmt.Errorf("create %s: %w", r.Key, err)
	}
	r.Version = 1
	s.publish(Event{Kind: "put", Resource: r})
	return r, nil
}

// Update replaces a resource if its stored version is still r.Version.
func (s *Store) Update(ctx context.Context, r Resource) (Resource, error) {
	labels, _ := json.Marshal(r.Labels)
	res, err := s.db.ExecContext(ctx,
		`UPDATE resources SET version = version + 1, labels = $5, spec = $6
		 WHERE mesh = $1 AND type = $2 AND name = $3 AND version = $4`,
		r.Mesh, r.Type, r.Name, r.Version, labels, r.Spec)
	if err != nil {
		return Resource{}, fmt.Errorf("update %s: %w", r.Key, err)
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return Resource{}, ErrConflict
	}
	r.Version++
	s.publish(Event{Kind: "put", Resource: r})
	return r, nil
}

// Delete removes a resource if its stored version is expected (0: any).
func (s *Store) Delete(ctx context.Context, k Key, expected int64) error {
	res, err := s.db.ExecContext(ctx,
		`DELETE FROM resources WHERE mesh = $1 AND type = $2 AND name = $3 AND ($4 = 0 OR version = $4)`,
		k.Mesh, k.Type, k.Name, expected)
	if err != nil {
		return fmt.Errorf("delete %s: %w", k, err)
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return ErrNotFound
	}
	s.publish(Event{Kind: "delete", Resource: Resource{Key: k}})
	return nil
}

// ClusterID returns the id of the cluster the store belongs to. It is read once and kept.
func (s *Store) ClusterID(ctx context.Context) (string, error) {
	if p := s.clusterID.Load(); p != nil {
		return *p, nil
	}
	var id string
	if err := s.db.QueryRowContext(ctx, `SELECT value FROM config WHERE key = 'cluster_id'`).Scan(&id); err != nil {
		return "", err
	}
	s.clusterID.Store(&id)
	return id, nil
}

// Close closes the database.
func (s *Store) Close() error { return s.db.Close() }
