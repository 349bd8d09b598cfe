// Package routestore persists the gateway's route table in Postgres.
package routestore

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strconv"
)

// ErrNotFound is returned for an unknown route id.
var ErrNotFound = errors.New("routestore: route not found")

// Route is one row of the routes table.
type Route struct {
	ID         string
	Host       string
	PathPrefix string
	Upstream   string
	Weight     int32
	Revision   int64
	Deleted    bool
}

// Upstream is a named group of backend hosts.
type Upstream struct {
	Name     string
	Hosts    []string
	Resolver string // "system" or "internal"
}

// Store is the route repository.
type Store struct {
	db *sql.DB
}

// New returns a store over db.
func New(db *sql.DB) *Store { return &Store{db: db} }

const routeCols = `id, host, path_prefix, upstream, weight, revision, deleted`

func scanRoute(row interface{ Scan(...any) error }) (*Route, error) {
	var r Route
	if err := row.Scan(&r.ID, &r.Host, &r.PathPrefix, &r.Upstream, &r.Weight, &r.Revision, &r.Deleted); err != nil {
		return nil, err
	}
	return &r, nil
}

// Get loads one route.
func (s *Store) Get(ctx context.Context, id string) (*Route, error) {
	r, err := scanRoute(s.db.QueryRowContext(ctx, `SELECT `+routeCols+` FROM routes WHERE id = $1 AND NOT deleted`, id))
	if errors.Is(err, sql.ErrNoRows) {
		return nil, ErrNotFound
	}
	if err != nil {
		return nil, fmt.Errorf("routestore: get %s: %w", id, err)
	}
	return r, nil
}

// List pages through all live routes ordered by id.
func (s *Store) List(ctx context.Context, pageSize int, after string) ([]*Route, string, error) {
	rows, err := s.db.QueryContext(ctx,
		`SELECT `+routeCols+` FROM routes WHERE NOT deleted AND id > $1 ORDER BY id LIMIT $2`, after, pageSize)
	if err != nil {
		return nil, "", fmt.Errorf("routestore: list: %w", err)
	}
	defer rows.Close()
	var out []*Route
	for rows.Next() {
		r, err := scanRoute(rows)
		if err != nil {
			return nil, "", err
		}
		out = append(out, r)
	}
	next := ""
	if len(out) == pageSize {
		next = out[len(out)-1].ID
	}
	return out, next, rows.Err()
}

// ChangesSince returns routes of host changed after revision rev, oldest first.
func (s *Store) ChangesSince(ctx context.Context, host string, rev int64) ([]*Route, error) {
	rows, err := s.db.QueryContext(ctx,
		`SELECT `+routeCols+` FROM routes WHERE ($1 = '' OR host = $1) AND revision > $2 ORDER BY revision LIMIT 500`, host, rev)
	if err != nil {
		return nil, fmt.Errorf("routestore: changes since %d: %w", rev, err)
	}
	defer rows.Close()
	var out []*Route
	for rows.Next() {
		r, err := scanRoute(rows)
		if err != nil {
			return nil, err
		}
		out = append(out, r)
	}
	return out, rows.Err()
}

// Upstream loads an upstream group.
func (s *Store) Upstream(ctx context.Context, name string) (*Upstream, error) {
	u := Upstream{Name: name}
	var hosts string
	err := s.db.QueryRowContext(ctx, `SELECT hosts, resolver FROM upstreams WHERE name = $1`, name).Scan(&hosts, &u.Resolver)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, ErrNotFound
	}
	if err != nil {
		return nil, fmt.Errorf("routestore: upstream %s: %w", name, err)
	}
	u.Hosts = splitHosts(hosts)
	return &u, nil
}

// Warm touches the route table so that the first requests do not pay for a cold
// buffer cache.
func (s *Store) Warm(ctx context.Context) error {
	_, err := s.db.ExecContext(ctx, `SELECT pg_prewarm('routes')`)
	return err
}

// Compact removes tombstones older than the retention revision.
func (s *Store) Compact(ctx context.Context, keepRevisions int64) (int64, error) {
	res, err := s.db.ExecContext(ctx,
		`DELETE FROM routes WHERE deleted AND revision < (SELECT max(revision) FROM routes) - $1`, strconv.FormatInt(keepRevisions, 10))
	if err != nil {
		return 0, err
	}
	return res.RowsAffected()
}

func splitHosts(s string) []string {
	var out []string
	start := 0
	for i := 0; i <= len(s); i++ {
		if i == len(s) || s[i] == ',' {
			if i > start {
				out = append(out, s[start:i])
			}
			start = i + 1
		}
	}
	return out
}
