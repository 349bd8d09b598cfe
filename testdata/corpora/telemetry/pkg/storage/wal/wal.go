// Package wal is the ingester's write-ahead log: one append-only file per
// tenant, replayed on start-up.
package wal

import (
	"bufio"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"sync"

	"example.test/telemetry/gen/pushpb"
)

// Record is one appended batch.
type Record struct {
	Tenant string         `json:"tenant"`
	Spans  []*pushpb.Span `json:"spans"`
}

// WAL appends records to per-tenant segment files.
type WAL struct {
	dir   string
	mu    sync.Mutex
	files map[string]*os.File
}

// Open opens (and creates) the WAL directory.
func Open(dir string) (*WAL, error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, err
	}
	return &WAL{dir: dir, files: map[string]*os.File{}}, nil
}

// Append writes a record for the tenant.
func (w *WAL) Append(r Record) error {
	data, err := json.Marshal(r)
	if err != nil {
		return err
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	f, ok := w.files[r.Tenant]
	if !ok {
		f, err = os.OpenFile(filepath.Join(w.dir, r.Tenant+".wal"), os.O_CREATE|os.O_APPEND|os.O_WRONLY, 0o644)
		if err != nil {
			return err
		}
		w.files[r.Tenant] = f
	}
	_, err = f.Write(append(data, '\n'))
	return err
}

// Truncate drops the tenant's segment after a flush.
func (w *WAL) Truncate(tenant string) error {
	w.mu.Lock()
	defer w.mu.Unlock()
	if f, ok := w.files[tenant]; ok {
		_ = f.Close()
		delete(w.files, tenant)
	}
	return os.Remove(filepath.Join(w.dir, tenant+".wal"))
}

// Replay calls fn for every record, stopping when ctx is done.
func (w *WAL) Replay(ctx context.Context, fn func(Record) error) error {
	paths, err := filepath.Glob(filepath.Join(w.dir, "*.wal"))
	if err != nil {
		return err
	}
	for _, p := range paths {
		if err := ctx.Err(); err != nil {
			return err
		}
		if err := replayFile(p, fn); err != nil {
			return err
		}
	}
	return nil
}

func replayFile(p string, fn func(Record) error) error {
	f, err := os.Open(p)
	if err != nil {
		return err
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 64<<20)
	for sc.Scan() {
		var r Record
		if err := json.Unmarshal(sc.Bytes(), &r); err != nil {
			return err
		}
		if err := fn(r); err != nil {
			return err
		}
	}
	return sc.Err()
}

// Close closes every segment.
func (w *WAL) Close() error {
	w.mu.Lock()
	defer w.mu.Unlock()
	for t, f := range w.files {
		_ = f.Close()
		delete(w.files, t)
	}
	return nil
}
