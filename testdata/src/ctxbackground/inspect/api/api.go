// Package api serves the catalog through the connection cache of package conncache.
package api

import (
	"context"
	"database/sql"
	"time"

	"example.com/gen/catalogpb"
	"google.golang.org/grpc"

	"ctxbackground/inspect/conncache"
)

type Server struct {
	catalogpb.UnimplementedCatalogServer
	db *sql.DB
}

// peer dials with a root through the cache's dial helper: the connection outlives the request.
func (s *Server) peer() (*grpc.ClientConn, error) {
	return conncache.Dial(context.Background(), "peer:443")
}

// checked opens with a root: the store's ping is work done for the caller.
func (s *Server) checked() (*grpc.ClientConn, error) { // want checked:"drops ctx"
	return conncache.Open(context.Background(), "peer:443", s.db)
}

// retried retries through the cache with a root: the predicate's answer is what would stop it.
func retried(addr string, fn func(catalogpb.CatalogClient) error) error { // want retried:"drops ctx"
	return conncache.Retry(context.Background(), addr, fn)
}

// copyAll copies through the cache's wrapper, whose callback runs in place.
func (s *Server) copyAll() error { // want copyAll:"drops ctx"
	return conncache.WithCatalog("peer:443", func(c catalogpb.CatalogClient) error {
		return s.copyFrom(c)
	})
}

// copyFrom streams with a root of its own: work that outlives the caller.
func (s *Server) copyFrom(c catalogpb.CatalogClient) error { // want copyFrom:"drops ctx"
	stream, err := c.ListItems(context.Background(), &catalogpb.ListItemsRequest{})
	if err != nil {
		return err
	}
	_, err = stream.Recv()
	return err
}

// reload runs fn through the cache with a root that only dials the connection the cache keeps.
func reload(fn func(catalogpb.CatalogClient) error) error {
	return conncache.WithDialed(context.Background(), "peer:443", fn)
}

// probed runs fn over a connection dialled with a root and closed after it: work for the caller.
func probed(fn func(catalogpb.CatalogClient) error) error { // want probed:"drops ctx"
	return conncache.WithProbe(context.Background(), "peer:443", fn)
}

// gone asks whether ctx ended the call, like conncache's predicate.
func gone(ctx context.Context, err error) bool {
	return err != nil && ctx.Err() != nil
}

func (s *Server) GetItem(ctx context.Context, req *catalogpb.GetItemRequest) (*catalogpb.Item, error) {
	var item *catalogpb.Item
	get := func(c catalogpb.CatalogClient) error {
		var err error
		item, err = c.GetItem(ctx, req) // the request's ctx bounds the call
		return err
	}
	// The root is only asked, after the call, whether it ended it: silent.
	if err := conncache.With(context.Background(), "peer:443", get); err != nil {
		return nil, err
	}
	// The same through a helper of the cache that makes that root itself: silent.
	if err := conncache.WithPeer("peer:443", get); err != nil {
		return nil, err
	}
	// A root that only dials a connection the cache stores itself, and is asked afterwards: silent.
	if err := conncache.WithDialed(context.Background(), "peer:443", get); err != nil {
		return nil, err
	}
	// A root that dials a connection closed after the call: work for this request.
	if err := conncache.WithProbe(context.Background(), "peer:443", get); err != nil { // want `context.Background\(\) in handler Server.GetItem drops the caller's deadline`
		return nil, err
	}
	// Roots that dial a connection the caller owns, one taken out and closed after the call, or
	// one dialled again and again: work for this request.
	if p, err := conncache.NewPeer(context.Background(), "peer:443"); err == nil { // want `context.Background\(\) in handler Server.GetItem drops the caller's deadline`
		p.Close()
	}
	if err := conncache.Tracked(context.TODO(), "peer:443", get); err != nil { // want `context.TODO\(\) in handler Server.GetItem drops the caller's deadline`
		return nil, err
	}
	if err := conncache.Borrowed(context.Background(), "peer:443", get); err != nil { // want `context.Background\(\) in handler Server.GetItem drops the caller's deadline`
		return nil, err
	}
	if err := conncache.DialInto(context.TODO(), map[string]*grpc.ClientConn{}, "peer:443"); err != nil { // want `context.TODO\(\) in handler Server.GetItem drops the caller's deadline`
		return nil, err
	}
	conncache.Connect(context.Background(), "peer:443") // want `context.Background\(\) in handler Server.GetItem drops the caller's deadline`
	if err := reload(get); err != nil {                 // the same in a helper: silent
		return nil, err
	}
	if err := probed(get); err != nil { // want `api\.probed, called in handler Server\.GetItem, works with context\.Background\(\); pass ctx down`
		return nil, err
	}
	if err := s.copyAll(); err != nil { // want `api\.Server\.copyAll, called in handler Server\.GetItem, works with context\.Background\(\); pass ctx down`
		return nil, err
	}
	if _, err := s.peer(); err != nil { // a dial helper's: silent
		return nil, err
	}
	if _, err := s.checked(); err != nil { // want `api\.Server\.checked, called in handler Server\.GetItem, works with context\.Background\(\); pass ctx down`
		return nil, err
	}
	return item, nil
}

func (s *Server) ListItems(req *catalogpb.ListItemsRequest, stream catalogpb.Catalog_ListItemsServer) error {
	ctx := stream.Context()
	send := func(c catalogpb.CatalogClient) error {
		_, err := c.GetItem(ctx, &catalogpb.GetItemRequest{Id: req.GetCategory()})
		return err
	}
	if err := conncache.Retry(context.Background(), "peer:443", send); err != nil { // want `context.Background\(\) in handler Server.ListItems drops the caller's deadline`
		return err
	}
	conncache.Poll(context.Background(), func() bool { return true }) // want `context.Background\(\) in handler Server.ListItems drops the caller's deadline`
	conncache.Gate(context.TODO(), func() {})                         // want `context.TODO\(\) in handler Server.ListItems drops the caller's deadline`
	for i := 0; i < 3; i++ {
		err := conncache.With(ctx, "peer:443", send)
		if !gone(context.Background(), err) { // want `context.Background\(\) in handler Server.ListItems drops the caller's deadline`
			break
		}
		time.Sleep(time.Second)
	}
	for i := 0; i < 3; i++ {
		err := conncache.With(ctx, "peer:443", send)
		done := func() bool { return gone(context.TODO(), err) } // want `context.TODO\(\) in handler Server.ListItems drops the caller's deadline`
		if done() {
			break
		}
	}
	if err := conncache.WithFresh(context.TODO(), "peer:443"); err != nil { // want `context.TODO\(\) in handler Server.ListItems drops the caller's deadline`
		return err
	}
	once := conncache.With(ctx, "peer:443", send)
	if func() bool { return gone(context.TODO(), once) }() { // asked once, after the work: silent
		return once
	}
	return retried("peer:443", send) // want `api\.retried, called in handler Server\.ListItems, works with context\.Background\(\); pass stream.Context\(\) down`
}
