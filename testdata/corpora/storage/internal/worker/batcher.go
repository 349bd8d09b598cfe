// Package worker holds the background machinery of a storage node: batchers,
// a worker pool, the GC worker, the heartbeat loop and compaction jobs. None
// of it runs on behalf of a single request.
package worker

import (
	"context"
	"log/slog"
	"sync"
	"time"
)

// Batcher collects items and flushes them in batches, on size or on a timer.
type Batcher[T any] struct {
	mu      sync.Mutex
	items   []T
	size    int
	timeout time.Duration
	flushFn func(ctx context.Context, items []T) error
	stop    chan struct{}
	wg      sync.WaitGroup
}

// NewBatcher starts a batcher that calls flush with up to size items.
func NewBatcher[T any](size int, every time.Duration, flush func(ctx context.Context, items []T) error) *Batcher[T] {
	b := &Batcher[T]{size: size, timeout: 10 * time.Second, flushFn: flush, stop: make(chan struct{})}
	b.wg.Add(1)
	go b.loop(every)
	return b
}

// Add queues item. A full batch is flushed in the background.
func (b *Batcher[T]) Add(item T) {
	b.mu.Lock()
	b.items = append(b.items, item)
	var full []T
	if len(b.items) >= b.size {
		full, b.items = b.items, nil
	}
	b.mu.Unlock()
	if full != nil {
		go b.flush(context.Background(), full)
	}
}

func (b *Batcher[T]) flush(ctx context.Context, items []T) {
	ctx, cancel := context.WithTimeout(ctx, b.timeout)
	defer cancel()
	if err := b.flushFn(ctx, items); err != nil {
		slog.Warn("batcher: flush failed", "items", len(items), "err", err)
	}
}

func (b *Batcher[T]) loop(every time.Duration) {
	defer b.wg.Done()
	t := time.NewTicker(every)
	defer t.Stop()
	for {
		select {
		case <-b.stop:
			return
		case <-t.C:
			b.mu.Lock()
			items := b.items
			b.items = nil
			b.mu.Unlock()
			if len(items) > 0 {
				b.flush(context.Background(), items)
			}
		}
	}
}

// Close stops the timer loop and flushes what is left.
func (b *Batcher[T]) Close() {
	close(b.stop)
	b.wg.Wait()
	b.mu.Lock()
	items := b.items
	b.items = nil
	b.mu.Unlock()
	if len(items) > 0 {
		b.flush(context.Background(), items)
	}
}
