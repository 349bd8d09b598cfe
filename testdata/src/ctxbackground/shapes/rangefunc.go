package shapes

import (
	"context"
	"iter"

	"example.com/gen/catalogpb"
)

func ids(ctx context.Context) iter.Seq[string] {
	return func(yield func(string) bool) { yield("a") }
}

type ranged struct {
	catalogpb.UnimplementedCatalogServer
}

// Range-over-func: the loop body is a synthetic closure.
func (s *ranged) GetItem(ctx context.Context, req *catalogpb.GetItemRequest) (*catalogpb.Item, error) {
	for id := range ids(ctx) {
		if _, err := load(context.Background(), id); err != nil { // want `context.Background\(\) in handler ranged.GetItem`
			return nil, err
		}
	}
	for id := range ids(ctx) {
		_, _ = load(ctx, id)
	}
	return nil, nil
}
