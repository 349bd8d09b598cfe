package gc

import (
	"context"
	"database/sql"
	"sync"

	"example.test/buildcache/gen/bcv1"
)

// LRU evicts the least recently used blobs when the disk fills.
type LRU struct {
	db       *sql.DB
	peer     bcv1.ContentAddressableStorageClient
	mu       sync.Mutex
	pressure chan int64
}

// NewLRU starts the eviction loop.
func NewLRU(db *sql.DB, peer bcv1.ContentAddressableStorageClient) *LRU {
	l := &LRU{db: db, peer: peer, pressure: make(chan int64, 1)}
	go l.evictLoop()
	return l
}

// Signal asks the loop to free bytes.
func (l *LRU) Signal(n int64) {
	select {
	case l.pressure <- n:
	default:
	}
}

func (l *LRU) evictLoop() {
	ctx := context.Background()
	for n := range l.pressure {
		victims, err := l.pick(ctx, n)
		if err != nil {
			continue
		}
		missing, err := l.peer.FindMissingBlobs(ctx, &bcv1.FindMissingBlobsRequest{Digests: victims}) // BUG: missingdeadline — the eviction loop's ctx has no deadline (first of two RPCs)
		if err != nil {
			continue
		}
		if len(missing.GetMissing()) > 0 {
			_, _ = l.peer.BatchUpdateBlobs(ctx, &bcv1.BatchUpdateBlobsRequest{})
		}
		_, _ = l.EvictTo(ctx, n)
	}
}

func (l *LRU) pick(ctx context.Context, n int64) ([]*bcv1.Digest, error) {
	rows, err := l.db.QueryContext(ctx, `SELECT hash FROM blobs ORDER BY atime LIMIT 100`)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []*bcv1.Digest
	for rows.Next() {
		var h string
		if err := rows.Scan(&h); err != nil {
			return nil, err
		}
		out = append(out, &bcv1.Digest{Hash: h})
	}
	return out, rows.Err()
}

// EvictTo deletes cold blobs until target bytes are freed.
func (l *LRU) EvictTo(ctx context.Context, target int64) (int64, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	res, err := l.db.ExecContext(ctx, `DELETE FROM blobs WHERE hash IN (SELECT hash FROM blobs ORDER BY atime LIMIT $1)`, target/4096+1)
	if err != nil {
		return 0, err
	}
	return res.RowsAffected()
}
