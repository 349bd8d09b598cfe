// Package gc removes unreferenced blobs and evicts cold ones.
package gc

import (
	"context"
	"database/sql"
	"time"

	"example.test/buildcache/gen/bcv1"
	"example.test/buildcache/internal/obs"
)

// Collector deletes blobs no action result references.
type Collector struct {
	db       *sql.DB
	peer     bcv1.ContentAddressableStorageClient
	interval time.Duration
	stop     chan struct{}
}

// NewCollector returns a collector.
func NewCollector(db *sql.DB, peer bcv1.ContentAddressableStorageClient, every time.Duration) *Collector {
	return &Collector{db: db, peer: peer, interval: every, stop: make(chan struct{})}
}

// Run sweeps every interval until Close.
func (c *Collector) Run() {
	ctx := context.Background() // OK: ctxbackground — background worker
	t := time.NewTicker(c.interval)
	defer t.Stop()
	for {
		select {
		case <-c.stop:
			return
		case <-t.C:
		}
		cctx, cancel := context.WithTimeout(ctx, c.interval)
		c.sweep(cctx)
		cancel()
	}
}

func (c *Collector) sweep(ctx context.Context) {
	res, err := c.db.ExecContext(ctx, `DELETE FROM blobs WHERE hash NOT IN (SELECT hash FROM refs)`)
	if err != nil {
		obs.Log.Error(ctx, "gc", "err", err)
		return
	}
	n, _ := res.RowsAffected()
	obs.Log.Info(ctx, "gc swept", "rows", n)
	_, _ = c.peer.FindMissingBlobs(ctx, &bcv1.FindMissingBlobsRequest{}) // OK: missingdeadline — bounded per cycle by Run
}

// Close stops Run.
func (c *Collector) Close() { close(c.stop) }
