// Package svc hands callbacks to another package's runners.
package svc

import (
	"context"
	"net"
	"time"

	"ctxbackground/callback/batch"
	"example.com/gen/catalogpb"
)

func dial(ctx context.Context, id string) error {
	var d net.Dialer
	_, err := d.DialContext(ctx, "tcp", id)
	return err
}

type Server struct {
	catalogpb.UnimplementedCatalogServer
}

func (s *Server) saveDetached(_ context.Context, id string) error { // want saveDetached:"drops ctx"
	return dial(context.Background(), id)
}

func (s *Server) save(ctx context.Context, id string) error { return dial(ctx, id) }

func (s *Server) GetItem(ctx context.Context, req *catalogpb.GetItemRequest) (*catalogpb.Item, error) {
	ids := []string{req.GetId()}
	_ = batch.Each(ctx, ids, s.saveDetached) // want `svc.Server.saveDetached, called in handler Server.GetItem, works with context.Background\(\)`
	_ = batch.Each(ctx, ids, s.save)
	batch.Register(s.saveDetached)                                                        // kept for later, not run by this call
	_ = batch.EachDetached(ids, time.Second, func(ctx context.Context, id string) error { // want `batch.EachDetached, called in handler Server.GetItem, works with context.Background\(\)`
		return dial(ctx, id)
	})
	note := batch.Detached(func(ctx context.Context) error { return dial(ctx, "note") }, time.Second)
	_ = note(ctx) // want `the function batch.Detached returns, called in handler Server.GetItem, works with context.Background\(\)`
	bounded := batch.Bounded(func(ctx context.Context) error { return dial(ctx, "b") }, time.Second)
	_ = bounded(ctx)
	return nil, nil
}

// Pooled calls a method runner through a method value, whose arguments leave out the receiver
// the runner's fact counts: the callback it runs is still the third argument.
type Pooled struct {
	catalogpb.UnimplementedCatalogServer
	pool batch.Pool
}

func (s *Pooled) stash(_ context.Context, id string) error { // want stash:"drops ctx"
	return dial(context.TODO(), id)
}

func (s *Pooled) keep(ctx context.Context, id string) error { return dial(ctx, id) }

func (s *Pooled) GetItem(ctx context.Context, req *catalogpb.GetItemRequest) (*catalogpb.Item, error) {
	each := s.pool.Each
	_ = each(ctx, []string{req.GetId()}, s.keep)
	_ = each(ctx, []string{req.GetId()}, s.stash) // want `svc.Pooled.stash, called in handler Pooled.GetItem, works with context.TODO\(\)`
	return nil, nil
}

// ListItems ranges over another package's iterators.
func (s *Server) ListItems(req *catalogpb.ListItemsRequest, stream catalogpb.Catalog_ListItemsServer) error {
	var x batch.Index
	for id := range x.All() { // want `the function batch.Index.All returns, called in handler Server.ListItems, works with context.Background\(\)`
		_ = id
	}
	for id := range x.Scan(stream.Context()) {
		_ = id
	}
	return nil
}
