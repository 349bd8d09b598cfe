package dynamic

import (
	"context"
	"iter"

	"example.com/gen/catalogpb"
)

type index struct{ keys []string }

// All yields every key after loading it with a root of its own: the iterator's work runs as
// part of the loop.
func (x *index) All() iter.Seq2[string, error] { // want All:"returns a function that result 0 drops ctx"
	return func(yield func(string, error) bool) {
		for _, k := range x.keys {
			if !yield(k, fetch(context.Background(), k)) {
				return
			}
		}
	}
}

// Keys yields the keys and does nothing else.
func (x *index) Keys() iter.Seq[string] {
	return func(yield func(string) bool) {
		for _, k := range x.keys {
			if !yield(k) {
				return
			}
		}
	}
}

type ranger struct {
	catalogpb.UnimplementedCatalogServer
	idx *index
}

func (s *ranger) GetItem(ctx context.Context, req *catalogpb.GetItemRequest) (*catalogpb.Item, error) {
	for k, err := range s.idx.All() { // want `works with context.Background\(\)`
		_, _ = k, err
	}
	for k := range s.idx.Keys() {
		_ = fetch(ctx, k)
	}
	return nil, nil
}

// Do runs fn with the ctx it is given, a generic retry helper.
func Do[T any](ctx context.Context, attempts int, fn func(context.Context) (T, error)) (T, error) {
	var zero T
	for i := 0; i < attempts; i++ {
		if v, err := fn(ctx); err == nil {
			return v, nil
		}
	}
	return zero, nil
}

func loadCount(ctx context.Context) (int, error) { return 0, fetch(context.TODO(), "n") } // want loadCount:"drops ctx"
func keepCount(ctx context.Context) (int, error) { return 0, fetch(ctx, "n") }

type generic struct {
	catalogpb.UnimplementedCatalogServer
}

func (s *generic) GetItem(ctx context.Context, req *catalogpb.GetItemRequest) (*catalogpb.Item, error) {
	_, _ = Do(ctx, 3, loadCount) // want `works with context.TODO\(\)`
	_, _ = Do(ctx, 3, keepCount)
	return nil, nil
}
