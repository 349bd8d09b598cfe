package evil

import (
	"context"
	"sync"
	"time"

	"example.com/gen/catalogpb"
)

// Failing looks like cleanup after a failure, and like one-time initialisation, without being
// either.
type Failing struct {
	catalogpb.UnimplementedCatalogServer
}

// Chat's goroutine, once Recv fails, polls forever with a bounded root: a failure branch with
// no way out is no way out of the failure.
func (f *Failing) Chat(stream catalogpb.Catalog_ChatServer) error {
	go func() {
		for {
			if _, err := stream.Recv(); err != nil {
				pctx, cancel := context.WithTimeout(context.Background(), time.Second) // want `context.WithTimeout\(context.Background\(\), ...\) in handler Failing.Chat replaces the caller's deadline`
				defer cancel()
				for {
					_, _ = load(pctx, "poll")
				}
			}
		}
	}()
	<-stream.Context().Done()
	return nil
}

// perCall runs its work in a literal a local sync.Once runs: once per call, every call.
func perCall(ctx context.Context, id string) *catalogpb.Item {
	var once sync.Once
	var item *catalogpb.Item
	once.Do(func() { item, _ = load(ctx, id) })
	return item
}

// perCallValue makes its sync.OnceValue anew on every call, and calls it.
func perCallValue(ctx context.Context, id string) *catalogpb.Item {
	get := sync.OnceValue(func() *catalogpb.Item { item, _ := load(ctx, id); return item })
	return get()
}

// fetch hands roots to both: work done for the caller on every call.
func fetch(id string) *catalogpb.Item { // want fetch:"drops ctx"
	if item := perCall(context.Background(), id); item != nil {
		return item
	}
	return perCallValue(context.TODO(), id)
}

func (f *Failing) GetItem(ctx context.Context, req *catalogpb.GetItemRequest) (*catalogpb.Item, error) {
	return fetch(req.GetId()), nil // want `evil.fetch, called in handler Failing.GetItem, works with context.Background\(\) and context.TODO\(\)`
}
