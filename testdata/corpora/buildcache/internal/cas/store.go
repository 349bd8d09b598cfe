// Package cas serves the content-addressable storage.
package cas

import (
	"context"
	"database/sql"
	"errors"
	"os"
	"path/filepath"
	"time"

	"example.test/buildcache/gen/bcv1"
)

// ErrNotFound says a blob is not stored here.
var ErrNotFound = errors.New("blob not found")

// DiskStore keeps blobs in files and their metadata in a database.
type DiskStore struct {
	dir string
	db  *sql.DB
}

// NewDiskStore returns a store rooted at dir.
func NewDiskStore(dir string, db *sql.DB) *DiskStore { return &DiskStore{dir: dir, db: db} }

// Get reads a blob.
func (s *DiskStore) Get(ctx context.Context, d *bcv1.Digest) ([]byte, error) {
	var path string
	err := s.db.QueryRowContext(ctx, `SELECT path FROM blobs WHERE hash = $1`, d.GetHash()).Scan(&path)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, ErrNotFound
	}
	if err != nil {
		return nil, err
	}
	return os.ReadFile(filepath.Join(s.dir, path))
}

// Put writes a blob and records it.
func (s *DiskStore) Put(ctx context.Context, d *bcv1.Digest, data []byte) error {
	tmp, err := s.Stage(ctx, d, data)
	if err != nil {
		return err
	}
	if err := s.Commit(ctx, tmp); err != nil {
		dctx, cancel := context.WithTimeout(context.Background(), 5*time.Second) // OK: ctxbackground — undo after a failure the helper returns, bounded
		defer cancel()
		s.Discard(dctx, tmp)
		return err
	}
	return nil
}

// Stage writes data to a temporary file.
func (s *DiskStore) Stage(ctx context.Context, d *bcv1.Digest, data []byte) (string, error) {
	tmp := filepath.Join(s.dir, "tmp", d.GetHash())
	return tmp, os.WriteFile(tmp, data, 0o644)
}

// Commit moves a staged file in place and records it.
func (s *DiskStore) Commit(ctx context.Context, tmp string) error {
	_, err := s.db.ExecContext(ctx, `INSERT INTO blobs(hash, path) VALUES ($1, $2)`, filepath.Base(tmp), tmp)
	return err
}

// Discard removes a staged file and its row.
func (s *DiskStore) Discard(ctx context.Context, tmp string) {
	_ = os.Remove(tmp)
	_, _ = s.db.ExecContext(ctx, `DELETE FROM blobs WHERE path = $1`, tmp)
}

// Unlock releases the write lease on name.
func (s *DiskStore) Unlock(ctx context.Context, name string) {
	_, _ = s.db.ExecContext(ctx, `DELETE FROM leases WHERE name = $1`, name)
}
