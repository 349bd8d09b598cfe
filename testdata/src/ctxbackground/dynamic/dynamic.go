// Package dynamic holds handlers whose ctx is lost in a function reached through a function
// value: a callback, a method value, a command table, a closure a helper returns, an iterator.
// Each shape has its look-alike beside it: the same shape carrying the request's ctx.
package dynamic

import (
	"context"
	"net"

	"example.com/gen/catalogpb"
)

// fetch does ctx-taking work: it dials.
func fetch(ctx context.Context, id string) error {
	var d net.Dialer
	_, err := d.DialContext(ctx, "tcp", id)
	return err
}

// detached drops the ctx it is given.
func detached(ctx context.Context, id string) error { return fetch(context.Background(), id) } // want detached:"drops ctx"

// passing keeps it.
func passing(ctx context.Context, id string) error { return fetch(ctx, id) }

// retry calls its callback with the ctx it is given: as part of the call.
func retry(ctx context.Context, attempts int, fn func(context.Context, string) error) error {
	var err error
	for i := 0; i < attempts; i++ {
		if err = fn(ctx, "x"); err == nil {
			return nil
		}
	}
	return err
}

// registry only stores what it is given: a handler for later, not work of this call.
type registry struct {
	hooks []func(context.Context, string) error
}

func (r *registry) register(fn func(context.Context, string) error) { r.hooks = append(r.hooks, fn) }

type Server struct {
	catalogpb.UnimplementedCatalogServer
	reg   *registry
	store store
}

type store struct{}

func (store) flush(ctx context.Context, id string) error { return fetch(context.TODO(), id) } // want flush:"drops ctx"
func (store) sync(ctx context.Context, id string) error  { return fetch(ctx, id) }

// A named function handed to a callback runner is run on the handler's behalf.
func (s *Server) GetItem(ctx context.Context, req *catalogpb.GetItemRequest) (*catalogpb.Item, error) {
	_ = retry(ctx, 3, detached) // want `dynamic.detached, called in handler Server.GetItem, works with context.Background\(\)`
	_ = retry(ctx, 3, passing)
	s.reg.register(detached) // stored for later: not work of this request
	return nil, nil
}

type methods struct {
	catalogpb.UnimplementedCatalogServer
	store store
}

// A method value handed to the same runner.
func (s *methods) GetItem(ctx context.Context, req *catalogpb.GetItemRequest) (*catalogpb.Item, error) {
	_ = retry(ctx, 2, s.store.flush) // want `works with context.TODO\(\)`
	_ = retry(ctx, 2, s.store.sync)
	return nil, nil
}

// wire registers a hook for later; the literal it registers does not run as part of the call.
func wire(ctx context.Context, r *registry) {
	r.register(func(ctx context.Context, id string) error { return fetch(context.Background(), id) })
	_ = fetch(ctx, "wired")
}

type wiring struct {
	catalogpb.UnimplementedCatalogServer
	reg *registry
}

func (s *wiring) GetItem(ctx context.Context, req *catalogpb.GetItemRequest) (*catalogpb.Item, error) {
	wire(ctx, s.reg) // registration, not work done with a root
	return nil, nil
}
