package cas

import (
	"context"
	"database/sql"
	"sync"

	"example.test/buildcache/gen/bcv1"
	"example.test/buildcache/internal/obs"
)

// Index answers which digests are present.
type Index struct {
	db      *sql.DB
	mu      sync.Mutex
	tenants map[string]*tenantIndex
}

type tenantIndex struct {
	name string
	db   *sql.DB
}

// NewIndex returns an index over db.
func NewIndex(db *sql.DB) *Index { return &Index{db: db, tenants: map[string]*tenantIndex{}} }

// Missing returns the digests the index does not hold.
func (ix *Index) Missing(ctx context.Context, instance string, ds []*bcv1.Digest) ([]*bcv1.Digest, error) {
	obs.Log.Info(ctx, "index lookup", "instance", instance, "n", len(ds))
	rows, err := ix.db.QueryContext(context.Background(), `SELECT hash FROM blobs WHERE instance = $1`, instance)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	have := map[string]bool{}
	for rows.Next() {
		var h string
		if err := rows.Scan(&h); err != nil {
			return nil, err
		}
		have[h] = true
	}
	var out []*bcv1.Digest
	for _, d := range ds {
		if !have[d.GetHash()] {
			out = append(out, d)
		}
	}
	return out, rows.Err()
}

// MarkPresent records digests as stored.
func (ix *Index) MarkPresent(ctx context.Context, instance string, ds []*bcv1.Digest) {
	for _, d := range ds {
		_, _ = ix.db.ExecContext(ctx, `INSERT INTO blobs(instance, hash) VALUES ($1, $2)`, instance, d.GetHash())
	}
}

// Tenant returns the per-instance index, creating its table on first use.
func (ix *Index) Tenant(name string) *tenantIndex {
	ix.mu.Lock()
	defer ix.mu.Unlock()
	if t, ok := ix.tenants[name]; ok {
		return t
	}
	t := &tenantIndex{name: name, db: ix.db}
	_, _ = ix.db.ExecContext(context.Background(), `CREATE TABLE IF NOT EXISTS blobs_`+name+` (hash TEXT)`) // OK: ctxbackground — per-tenant table created once under the lock
	ix.tenants[name] = t
	return t
}

// Usage returns the bytes stored for an instance.
func (ix *Index) Usage(ctx context.Context, instance string) (int64, error) {
	var n int64
	err := ix.db.QueryRowContext(ctx, `SELECT coalesce(sum(size),0) FROM blobs WHERE instance = $1`, instance).Scan(&n)
	return n, err
}
