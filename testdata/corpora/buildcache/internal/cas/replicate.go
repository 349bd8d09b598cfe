package cas

import (
	"context"
	"sync"
	"time"

	"example.test/buildcache/gen/bcv1"
	"example.test/buildcache/internal/obs"
)

// Replicator copies new blobs to a peer cache.
type Replicator struct {
	peer bcv1.ContentAddressableStorageClient
}

// Push sends blobs to the peer.
func (r *Replicator) Push(ctx context.Context, blobs []*bcv1.Blob) error {
	_, err := r.peer.BatchUpdateBlobs(ctx, &bcv1.BatchUpdateBlobsRequest{Blobs: blobs})
	return err
}

// Batcher collects digests and flushes them to the index after the request.
type Batcher struct {
	mu      sync.Mutex
	pending []*bcv1.Digest
	ix      *Index
	kick    chan struct{}
	stop    chan struct{}
}

// NewBatcher starts the flush loop.
func NewBatcher(ix *Index) *Batcher {
	b := &Batcher{ix: ix, kick: make(chan struct{}, 1), stop: make(chan struct{})}
	go b.loop()
	return b
}

// Add queues d for the next flush.
func (b *Batcher) Add(ctx context.Context, d *bcv1.Digest) {
	b.mu.Lock()
	b.pending = append(b.pending, d)
	b.mu.Unlock()
	obs.Log.DebugContext(ctx, "queued", "hash", d.GetHash())
	select {
	case b.kick <- struct{}{}:
	default:
	}
}

func (b *Batcher) loop() {
	t := time.NewTicker(time.Second)
	defer t.Stop()
	for {
		select {
		case <-b.stop:
			return
		case <-t.C:
		case <-b.kick:
		}
		b.mu.Lock()
		batch := b.pending
		b.pending = nil
		b.mu.Unlock()
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second) // OK: ctxbackground — batcher loop runs after the requests that queued
		b.ix.MarkPresent(ctx, "", batch)
		cancel()
	}
}

// Close stops the flush loop.
func (b *Batcher) Close() { close(b.stop) }

// Warm starts a prefetch of hot digests on a goroutine of its own.
func (r *Replicator) Warm(ix *Index, instance string, ds []*bcv1.Digest) {
	go func() {
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute) // OK: ctxbackground — goroutine a helper starts with its own lifetime
		defer cancel()
		ix.MarkPresent(ctx, instance, ds)
	}()
}
