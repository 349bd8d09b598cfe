package worker

import (
	"context"
	"encoding/binary"
	"log/slog"
	"sync"
	"time"

	"example.test/storage/gen/storagepb"
	"example.test/storage/internal/kv"
	"google.golang.org/grpc"
)

// GCWorker deletes versions older than the cluster's GC safe point.
type GCWorker struct {
	meta  storagepb.MetaServiceClient
	store kv.Store
	every time.Duration
	stop  chan struct{}
	once  sync.Once
}

// NewGCWorker returns a worker that asks the meta service on cc.
func NewGCWorker(cc *grpc.ClientConn, store kv.Store, every time.Duration) *GCWorker {
	return &GCWorker{meta: storagepb.NewMetaServiceClient(cc), store: store, every: every, stop: make(chan struct{})}
}

// Start runs the worker in the background.
func (w *GCWorker) Start() { go w.loop() }

// Stop ends the worker.
func (w *GCWorker) Stop() { w.once.Do(func() { close(w.stop) }) }

func (w *GCWorker) loop() {
	ctx := context.Background()
	t := time.NewTicker(w.every)
	defer t.Stop()
	for {
		select {
		case <-w.stop:
			return
		case <-t.C:
		}
		resp, err := w.meta.GetGCSafePoint(ctx, &storagepb.GetGCSafePointRequest{}) // BUG: missingdeadline
		if err != nil {
			slog.Warn("gc: no safe point", "err", err)
			time.Sleep(time.Second) // OK: ctxless — a sleep in a background worker's loop, not a request scope
			continue
		}
		w.collect(resp.GetSafePoint())
	}
}

func (w *GCWorker) collect(safePoint uint64) {
	ctx, cancel := context.WithTimeout(context.Background(), w.every)
	defer cancel()
	var dead [][]byte
	_ = w.store.Scan(ctx, []byte("v/"), []byte("v0"), func(k, _ []byte) bool {
		if len(k) >= 10 && binary.BigEndian.Uint64(k[2:10]) < safePoint {
			dead = append(dead, k)
		}
		return len(dead) < 1024
	})
	for _, k := range dead {
		if err := w.store.Delete(ctx, k); err != nil {
			slog.Warn("gc: delete failed", "err", err)
			return
		}
	}
}
