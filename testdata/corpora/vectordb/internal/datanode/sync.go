package datanode

import (
	"context"
	"encoding/json"
	"fmt"
	"sync"
	"time"

	"example.test/vectordb/internal/conc"
	"example.test/vectordb/internal/log"
	"example.test/vectordb/internal/metrics"
	"example.test/vectordb/internal/storage"
)

type segmentBuffer struct {
	collID int64
	rows   [][]byte
	size   int
}

// syncManager writes buffered segments to object storage.
type syncManager struct {
	cm   *storage.ChunkManager
	pool *conc.Pool

	mu      sync.Mutex
	buffers map[int64]*segmentBuffer
}

func newSyncManager(cm *storage.ChunkManager, workers int) *syncManager {
	return &syncManager{cm: cm, pool: conc.NewPool(workers), buffers: map[int64]*segmentBuffer{}}
}

// Buffer appends a row to a segment's buffer.
func (m *syncManager) Buffer(collID, segID int64, row []byte) int {
	m.mu.Lock()
	defer m.mu.Unlock()
	b := m.buffers[segID]
	if b == nil {
		b = &segmentBuffer{collID: collID}
		m.buffers[segID] = b
	}
	b.rows = append(b.rows, row)
	b.size += len(row)
	return b.size
}

// SyncNow writes the segment's buffer and waits until it is stored.
func (m *syncManager) SyncNow(segID int64) error {
	return m.sync(context.Background(), segID)
}

// SyncStatsAsync writes the collection's statistics on the pool, after the
// caller returned.
func (m *syncManager) SyncStatsAsync(ctx context.Context, collID int64) *conc.Future {
	return m.pool.Submit(func() error {
		return m.syncStats(log.Detached(ctx), collID)
	})
}

func (m *syncManager) take(segID int64) *segmentBuffer {
	m.mu.Lock()
	defer m.mu.Unlock()
	b := m.buffers[segID]
	delete(m.buffers, segID)
	return b
}

func (m *syncManager) sync(ctx context.Context, segID int64) error {
	b := m.take(segID)
	if b == nil {
		return nil
	}
	binlog := fmt.Sprintf("insert_log/%d/%d/%d", b.collID, segID, time.Now().UnixNano())
	var data []byte
	for _, r := range b.rows {
		data = append(data, r...)
	}
	if err := m.cm.Write(ctx, binlog, data); err != nil {
		return err
	}
	stats, _ := json.Marshal(map[string]int{"rows": len(b.rows), "size": b.size})
	if err := m.cm.Write(ctx, binlog+".stats", stats); err != nil {
		rctx, cancel := context.WithTimeout(context.Background(), 5*time.Second) // OK: ctxbackground — bounded cleanup after a failure, beside the helper's own work with ctx
		defer cancel()
		_ = m.cm.Remove(rctx, binlog)
		return fmt.Errorf("write stats of segment %d: %w", segID, err)
	}
	metrics.FlushedSegments.Add(ctx, 1)
	return nil
}

func (m *syncManager) syncStats(ctx context.Context, collID int64) error {
	m.mu.Lock()
	rows := 0
	for _, b := range m.buffers {
		if b.collID == collID {
			rows += len(b.rows)
		}
	}
	m.mu.Unlock()
	raw, _ := json.Marshal(map[string]int{"buffered_rows": rows})
	return m.cm.Write(ctx, fmt.Sprintf("stats_log/%d/buffered", collID), raw)
}
