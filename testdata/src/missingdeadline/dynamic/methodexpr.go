package dynamic

import (
	"context"
	"time"

	"example.com/gen/catalogpb"
	"missingdeadline/dynamic/runner"
)

// settler settles one item; its method has a value receiver.
type settler struct{ c catalogpb.CatalogClient }

func (s settler) settle(ctx context.Context, id string) error {
	_, err := s.c.GetItem(ctx, &catalogpb.GetItemRequest{Id: id})
	return err
}

// settleAll calls its method through method expressions: the receiver is the first argument.
func (j *job) settleAll(ids []string) {
	settle := settler.settle
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	for _, id := range ids {
		_ = settle(settler{c: j.c}, ctx, id) // want `settler\.settle calls RPC CatalogClient\.GetItem with no deadline \(ctx from context\.Background\(\)\)`
	}
	_ = (*settler).settle(&settler{c: j.c}, context.TODO(), ids[0])                // want `settler\.settle calls RPC CatalogClient\.GetItem with no deadline \(ctx from context\.TODO\(\)\)`
	_ = runner.Fetcher.Fetch(runner.Fetcher{C: j.c}, context.Background(), ids[0]) // want `Fetcher\.Fetch calls RPC CatalogClient\.GetItem with no deadline \(ctx from context\.Background\(\)\)`
}

// settleBounded is settleAll with a deadline: silent.
func (j *job) settleBounded(ids []string) {
	settle := settler.settle
	fetch := runner.Fetcher.Fetch
	for _, id := range ids {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		_ = settle(settler{c: j.c}, ctx, id)
		_ = fetch(runner.Fetcher{C: j.c}, ctx, id)
		cancel()
	}
}
