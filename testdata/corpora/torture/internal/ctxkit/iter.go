package ctxkit

import (
	"context"
	"iter"
)

// Chunks yields consecutive slices of at most n elements.
func Chunks[T any](items []T, n int) iter.Seq[[]T] {
	return func(yield func([]T) bool) {
		for len(items) > 0 {
			k := min(n, len(items))
			if !yield(items[:k]) {
				return
			}
			items = items[k:]
		}
	}
}

// Until yields the elements of seq until ctx is done.
func Until[T any](ctx context.Context, seq iter.Seq[T]) iter.Seq[T] {
	return func(yield func(T) bool) {
		for v := range seq {
			if ctx.Err() != nil {
				return
			}
			if !yield(v) {
				return
			}
		}
	}
}

// Indexed yields (index, element) pairs of items.
func Indexed[T any](items []T) iter.Seq2[int, T] {
	return func(yield func(int, T) bool) {
		for i, v := range items {
			if !yield(i, v) {
				return
			}
		}
	}
}
