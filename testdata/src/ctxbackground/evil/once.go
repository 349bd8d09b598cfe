package evil

import (
	"context"
	"sync"

	"example.com/gen/catalogpb"
)

// Lazy fills shared state once, on the first request that needs it. The fill must not depend
// on that request: cancelled with it, the sync.Once would leave every later request without
// the state. A root context there replaces no caller's ctx.
type Lazy struct {
	catalogpb.UnimplementedCatalogServer
	once  sync.Once
	index func() *catalogpb.Item
	cache *catalogpb.Item
}

// NewLazy wraps the fill in sync.OnceValue.
func NewLazy() *Lazy {
	l := &Lazy{}
	l.index = sync.OnceValue(func() *catalogpb.Item {
		item, _ := load(context.Background(), "index")
		return item
	})
	return l
}

// shared fills the cache once: a helper a handler calls, with no fact.
func (l *Lazy) shared() *catalogpb.Item {
	l.once.Do(func() {
		l.cache, _ = load(context.Background(), "cache")
	})
	return l.cache
}

// refill is not run by sync.Once, but its work runs on a goroutine it starts, with a
// lifetime of its own: not work done on its caller's behalf.
func (l *Lazy) refill() {
	go func() {
		l.cache, _ = load(context.Background(), "refill")
	}()
}

func (l *Lazy) GetItem(ctx context.Context, req *catalogpb.GetItemRequest) (*catalogpb.Item, error) {
	_ = l.shared()
	_ = l.index()
	var once sync.Once
	once.Do(func() {
		go func() { _, _ = load(context.TODO(), "warm") }() // nested in the once literal
	})
	l.refill() // starts its own goroutine: not reported
	return load(ctx, req.GetId())
}
