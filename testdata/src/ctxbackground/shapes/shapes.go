// Package shapes holds one handler per SSA shape the origin walk must see through.
package shapes

import (
	"context"
	"iter"
	"time"

	"example.com/gen/catalogpb"
)

func load(ctx context.Context, id string) (*catalogpb.Item, error) { return nil, nil }

type Server struct {
	catalogpb.UnimplementedCatalogServer
	cond bool
}

// conditionalDrop: a phi merges the request ctx with a root; the root is reported.
func (s *Server) GetItem(ctx context.Context, req *catalogpb.GetItemRequest) (*catalogpb.Item, error) {
	c := ctx
	if s.cond {
		c = context.Background() // want `context.Background\(\) in handler Server.GetItem`
	}
	return load(c, req.GetId())
}

type captured struct {
	catalogpb.UnimplementedCatalogServer
}

// A root captured by a closure that reassigns it (spilled to an Alloc).
func (s *captured) GetItem(ctx context.Context, req *catalogpb.GetItemRequest) (*catalogpb.Item, error) {
	c := ctx
	reset := func() { c = context.TODO() } // want `context.TODO\(\) in handler captured.GetItem`
	reset()
	var item *catalogpb.Item
	run := func() { item, _ = load(c, req.GetId()) }
	run()
	return item, nil
}

type deferred struct {
	catalogpb.UnimplementedCatalogServer
}

func audit(ctx context.Context, what string) {}

// defer with a root.
func (s *deferred) GetItem(ctx context.Context, req *catalogpb.GetItemRequest) (*catalogpb.Item, error) {
	defer audit(context.Background(), "get") // want `context.Background\(\) in handler deferred.GetItem`
	return load(ctx, req.GetId())
}

type shadowed struct {
	catalogpb.UnimplementedCatalogServer
}

// A shadowing ctx := context.Background().
func (s *shadowed) GetItem(ctx context.Context, req *catalogpb.GetItemRequest) (*catalogpb.Item, error) {
	{
		ctx := context.Background() // want `context.Background\(\) in handler shadowed.GetItem drops the caller's deadline and cancellation; pass ctx`
		_, _ = load(ctx, "shadow")
	}
	return load(ctx, req.GetId())
}

type bound struct {
	catalogpb.UnimplementedCatalogServer
}

func (s *bound) fetch(ctx context.Context, id string) (*catalogpb.Item, error) { return load(ctx, id) }

// A $bound method value called with a root.
func (s *bound) GetItem(ctx context.Context, req *catalogpb.GetItemRequest) (*catalogpb.Item, error) {
	f := s.fetch
	return f(context.Background(), req.GetId()) // want `context.Background\(\) in handler bound.GetItem`
}

type generic struct {
	catalogpb.UnimplementedCatalogServer
}

func first[T any](ctx context.Context, xs []T) T { var zero T; return zero }

// Calls into a generic function.
func (s *generic) GetItem(ctx context.Context, req *catalogpb.GetItemRequest) (*catalogpb.Item, error) {
	_ = first(context.TODO(), []int{1}) // want `context.TODO\(\) in handler generic.GetItem`
	_ = first(ctx, []string{"ok"})
	return nil, nil
}

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

type tuple struct {
	catalogpb.UnimplementedCatalogServer
}

// Extract of WithTimeout's tuple, derived from ctx: fine.
func (s *tuple) GetItem(ctx context.Context, req *catalogpb.GetItemRequest) (*catalogpb.Item, error) {
	cctx, cancel := context.WithTimeout(ctx, time.Second)
	defer cancel()
	vctx := context.WithValue(cctx, struct{}{}, 1)
	return load(vctx, req.GetId())
}
