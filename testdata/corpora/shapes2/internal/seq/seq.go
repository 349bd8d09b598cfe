// Package seq walks the store with range-over-func iterators.
package seq

import (
	"context"
	"iter"

	"example.test/shapes2/internal/store"
)

// Pages yields the pages of an event's seats, loaded with ctx.
func Pages(ctx context.Context, st *store.Store, eventID string) iter.Seq2[int, []store.Seat] {
	return func(yield func(int, []store.Seat) bool) {
		for page := 0; ; page++ {
			seats, err := st.Seats(ctx, eventID, page)
			if err != nil || len(seats) == 0 {
				return
			}
			if !yield(page, seats) {
				return
			}
		}
	}
}

// All yields every seat of an event.
func All(st *store.Store, eventID string) iter.Seq[store.Seat] {
	return func(yield func(store.Seat) bool) {
		seats, err := st.Seats(context.Background(), eventID, 0)
		if err != nil {
			return
		}
		for _, s := range seats {
			if !yield(s) {
				return
			}
		}
	}
}

// Strings yields the strings of a slice; no context involved.
func Strings(xs []string) iter.Seq[string] {
	return func(yield func(string) bool) {
		for _, x := range xs {
			if !yield(x) {
				return
			}
		}
	}
}
