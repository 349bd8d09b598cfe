package querynode

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"sync"
	"time"

	"example.test/vectordb/gen/vdbpb"
	"example.test/vectordb/internal/conc"
	"example.test/vectordb/internal/grpcx"
	"example.test/vectordb/internal/storage"
)

type segment struct {
	id, collID   int64
	data         []byte
	sealed       bool
	indexVersion int
}

// segmentLoader loads segments from object storage into memory, on a pool
// of loader workers.
type segmentLoader struct {
	cm           *storage.ChunkManager
	pool         *conc.Pool
	indexVersion int

	mu       sync.RWMutex
	segments map[int64]*segment
}

func newSegmentLoader(cm *storage.ChunkManager, workers int) *segmentLoader {
	return &segmentLoader{cm: cm, pool: conc.NewPool(workers), segments: map[int64]*segment{}, indexVersion: 2}
}

func binlogPath(collID, id int64) string { return fmt.Sprintf("insert_log/%d/%d", collID, id) }
func statsPath(id int64) string          { return fmt.Sprintf("stats_log/segment/%d", id) }
func indexPath(id int64) string          { return fmt.Sprintf("index_files/%d", id) }

// Load loads the segments in parallel and waits for all of them.
func (l *segmentLoader) Load(ctx context.Context, collID int64, ids []int64) error {
	if _, err := l.cm.Read(ctx, fmt.Sprintf("load_manifest/%d", collID)); err != nil && !errors.Is(err, storage.ErrNotExist) {
		return fmt.Errorf("read load manifest of collection %d: %w", collID, err)
	}
	fs := make([]*conc.Future, 0, len(ids))
	for _, id := range ids {
		fs = append(fs, l.pool.Submit(func() error { return l.loadOne(ctx, collID, id) }))
	}
	return conc.AwaitAll(fs...)
}

func (l *segmentLoader) loadOne(ctx context.Context, collID, id int64) error {
	data, err := l.cm.Read(ctx, binlogPath(collID, id))
	if err != nil {
		return fmt.Errorf("load segment %d: %w", id, err)
	}
	l.mu.Lock()
	l.segments[id] = &segment{id: id, collID: collID, data: data, sealed: true, indexVersion: 1}
	l.mu.Unlock()
	return nil
}

// ensure returns the segment, reading it on demand.
func (l *segmentLoader) ensure(ctx context.Context, collID, id int64) (*segment, error) {
	l.mu.RLock()
	s, ok := l.segments[id]
	l.mu.RUnlock()
	if ok {
		return s, nil
	}
	if err := l.loadOne(ctx, collID, id); err != nil {
		return nil, err
	}
	l.mu.RLock()
	defer l.mu.RUnlock()
	return l.segments[id], nil
}

// get returns a loaded segment. With load set, a missing segment is loaded
// on a budget of its own, so that a cancelled caller leaves no half-loaded
// segment behind.
func (l *segmentLoader) get(ctx context.Context, collID, id int64, load bool) (*segment, error) {
	l.mu.RLock()
	s, ok := l.segments[id]
	l.mu.RUnlock()
	if ok {
		return s, nil
	}
	if !load {
		return nil, grpcx.ErrSegmentNotFound
	}
	lctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	if err := l.loadOne(lctx, collID, id); err != nil {
		return nil, err
	}
	return l.ensure(ctx, collID, id)
}

// CollectStats reads the statistics files of the segments.
func (l *segmentLoader) CollectStats(ctx context.Context, ids []int64) (rows, mem int64, err error) {
	for _, id := range ids {
		raw, err := l.cm.Read(ctx, statsPath(id))
		if err != nil {
			return 0, 0, err
		}
		var st struct {
			Rows int64 `json:"rows"`
			Size int64 `json:"size"`
		}
		if err := json.Unmarshal(raw, &st); err != nil {
			return 0, 0, err
		}
		rows += st.Rows
		mem += st.Size
	}
	return rows, mem, nil
}

// Warm reads the segment's index files into the page cache.
func (l *segmentLoader) Warm(ctx context.Context, id int64) error {
	_, err := l.cm.Read(ctx, indexPath(id))
	return err
}

func (l *segmentLoader) IsLoaded(id int64) bool {
	l.mu.RLock()
	defer l.mu.RUnlock()
	_, ok := l.segments[id]
	return ok
}

func (l *segmentLoader) Release(ids []int64) {
	l.mu.Lock()
	defer l.mu.Unlock()
	for _, id := range ids {
		delete(l.segments, id)
	}
}

func (l *segmentLoader) Sealed(collID int64) []int64 {
	l.mu.RLock()
	defer l.mu.RUnlock()
	var out []int64
	for id, s := range l.segments {
		if s.collID == collID && s.sealed {
			out = append(out, id)
		}
	}
	return out
}

func (l *segmentLoader) StaleIndexes(ids []int64) []int64 {
	l.mu.RLock()
	defer l.mu.RUnlock()
	var out []int64
	for _, id := range ids {
		if s, ok := l.segments[id]; ok && s.indexVersion < l.indexVersion {
			out = append(out, id)
		}
	}
	return out
}

// scan returns up to limit rows of the collection's segments.
func (l *segmentLoader) scan(ctx context.Context, collID int64, ids []int64, limit int64) ([]*vdbpb.Row, error) {
	var rows []*vdbpb.Row
	for _, id := range ids {
		s, err := l.ensure(ctx, collID, id)
		if err != nil {
			return nil, err
		}
		for off := 0; off+8 <= len(s.data) && int64(len(rows)) < limit; off += 8 {
			rows = append(rows, &vdbpb.Row{Pk: int64(off/8) + id<<20})
		}
	}
	if len(rows) == 0 && len(ids) > 0 {
		return nil, grpcx.ErrSegmentNotFound
	}
	return rows, nil
}
