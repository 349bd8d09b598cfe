package kv

import (
	"context"
	"errors"
	"fmt"
	"io"
	"sync"
	"time"
)

func ignoreEOF(err error) error {
	if errors.Is(err, io.EOF) {
		return nil
	}
	return err
}

// Replicated reads from a primary and falls back to a replica.
type Replicated struct {
	primary Store
	replica *SQLStore
}

// NewReplicated returns a read-through pair.
func NewReplicated(primary Store, replica *SQLStore) *Replicated {
	return &Replicated{primary: primary, replica: replica}
}

// ReadThrough reads key from the primary, and from the replica when the
// primary is unavailable.
func (r *Replicated) ReadThrough(ctx context.Context, key []byte) ([]byte, uint64, error) {
	v, ver, err := r.primary.Get(ctx, key)
	if err == nil || errors.Is(err, ErrNotFound) {
		return v, ver, err
	}
	return r.replica.Get(context.Background(), key)
}

// CopyRange copies [start, end) from src to dst; on a failed write it
// removes what it already wrote so that a retry starts from a clean range.
func CopyRange(ctx context.Context, src Store, dst *SQLStore, start, end []byte) (int, error) {
	var written [][]byte
	var werr error
	err := src.Scan(ctx, start, end, func(k, v []byte) bool {
		if _, werr = dst.Put(ctx, k, v); werr != nil {
			return false
		}
		written = append(written, k)
		return true
	})
	if err == nil {
		err = werr
	}
	if err != nil {
		// The caller's ctx may be what ran out: undo on a budget of our own.
		uctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		for _, k := range written {
			_ = dst.Delete(uctx, k)
		}
		return 0, fmt.Errorf("copy range: %w", err)
	}
	return len(written), nil
}

// Registry opens one SQLStore per tenant, on first use.
type Registry struct {
	mu     sync.Mutex
	driver string
	dsnFmt string
	stores map[string]*SQLStore
}

// NewRegistry returns an empty registry.
func NewRegistry(driver, dsnFmt string) *Registry {
	return &Registry{driver: driver, dsnFmt: dsnFmt, stores: map[string]*SQLStore{}}
}

// For returns the tenant's store, opening it the first time.
func (r *Registry) For(tenant string) (*SQLStore, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if st, ok := r.stores[tenant]; ok {
		return st, nil
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	st, err := OpenSQL(ctx, r.driver, fmt.Sprintf(r.dsnFmt, tenant), "kv")
	if err != nil {
		return nil, err
	}
	r.stores[tenant] = st
	return st, nil
}
