// Package batch groups items and flushes them off the request path.
package batch

import (
	"context"
	"log/slog"
	"time"
)

type Batcher[T any] struct {
	in           chan T
	size         int
	every        time.Duration
	flushTimeout time.Duration
	flush        func(context.Context, []T) error
}

func New[T any](size int, every time.Duration, flush func(context.Context, []T) error) *Batcher[T] {
	return &Batcher[T]{
		in:           make(chan T, size*4),
		size:         size,
		every:        every,
		flushTimeout: 5 * time.Second,
		flush:        flush,
	}
}

// Add hands an item to the batcher; it blocks only while the buffer is full
// and gives up when the caller's ctx is done.
func (b *Batcher[T]) Add(ctx context.Context, it T) error {
	select {
	case b.in <- it:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// Run owns the flush loop until ctx is done, then drains what is left.
func (b *Batcher[T]) Run(ctx context.Context) {
	t := time.NewTicker(b.every)
	defer t.Stop()
	buf := make([]T, 0, b.size)
	for {
		select {
		case <-ctx.Done():
		drain:
			for {
				select {
				case it := <-b.in:
					buf = append(buf, it)
				default:
					break drain
				}
			}
			// ctx is already cancelled; the final flush gets its own budget.
			fctx, cancel := context.WithTimeout(context.Background(), b.flushTimeout)
			b.doFlush(fctx, buf)
			cancel()
			return
		case it := <-b.in:
			buf = append(buf, it)
			if len(buf) >= b.size {
				b.flushWithin(ctx, buf)
				buf = buf[:0]
			}
		case <-t.C:
			if len(buf) > 0 {
				b.flushWithin(ctx, buf)
				buf = buf[:0]
			}
		}
	}
}

func (b *Batcher[T]) flushWithin(ctx context.Context, buf []T) {
	fctx, cancel := context.WithTimeout(ctx, b.flushTimeout)
	defer cancel()
	b.doFlush(fctx, buf)
}

func (b *Batcher[T]) doFlush(ctx context.Context, buf []T) {
	if len(buf) == 0 {
		return
	}
	if err := b.flush(ctx, append([]T(nil), buf...)); err != nil {
		slog.WarnContext(ctx, "batch flush failed", "n", len(buf), "err", err)
	}
}
