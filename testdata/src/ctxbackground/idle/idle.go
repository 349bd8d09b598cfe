// Package idle serves its requests from a pool of script runtimes. A runtime is given the
// request's ctx for a run and put back with context.Background(), its idle ctx, and a new
// runtime starts with one: the ctx set before each run decides what the run loses, and the idle
// one loses nothing. A root given to a runtime for a run is reported.
package idle

import (
	"context"
	"errors"

	"example.com/gen/catalogpb"
)

// runtime runs scripts with the ctx it was last given.
type runtime struct {
	ctx context.Context
}

// SetContext gives the runtime the ctx its next run uses.
func (r *runtime) SetContext(ctx context.Context) { r.ctx = ctx }

// Run runs a script with the runtime's ctx.
func (r *runtime) Run(script string) error {
	if script == "" {
		return errors.New("empty script")
	}
	return r.ctx.Err()
}

// Load gives the runtime a ctx and runs its prelude: no mere setter.
func (r *runtime) Load(ctx context.Context) error {
	r.ctx = ctx
	return r.Run("prelude")
}

// vm wraps a runtime, as an engine holds its interpreter.
type vm struct {
	rt *runtime
}

// newRuntime makes a runtime with its idle ctx: silent.
func newRuntime() *runtime {
	r := &runtime{}
	r.SetContext(context.Background())
	return r
}

// Server serves the catalog from a pool of runtimes.
type Server struct {
	catalogpb.UnimplementedCatalogServer
	pool chan *runtime
	vms  chan *vm
}

func (s *Server) get() *runtime {
	select {
	case r := <-s.pool:
		return r
	default:
		return newRuntime()
	}
}

// invoke runs a script for the request and resets the runtime before it goes back: silent.
func (s *Server) invoke(ctx context.Context, script string) error {
	r := s.get()
	r.SetContext(ctx)
	err := r.Run(script)
	r.SetContext(context.Background())
	s.pool <- r
	return err
}

// invokeVM does the same through the vm's field: silent.
func (s *Server) invokeVM(ctx context.Context, script string) error {
	v := <-s.vms
	v.rt.SetContext(ctx)
	err := v.rt.Run(script)
	v.rt.SetContext(context.Background())
	s.vms <- v
	return err
}

func (s *Server) GetItem(ctx context.Context, req *catalogpb.GetItemRequest) (*catalogpb.Item, error) {
	if err := s.invoke(ctx, req.GetId()); err != nil {
		return nil, err
	}
	if err := s.invokeVM(ctx, req.GetId()); err != nil {
		return nil, err
	}
	return &catalogpb.Item{Id: req.GetId()}, s.detached(req.GetId()) // want `idle.Server.detached, called in handler Server.GetItem, works with context.Background\(\)`
}

// detached gives a pooled runtime a root for the run itself.
func (s *Server) detached(script string) error { // want detached:"drops ctx"
	r := s.get()
	r.SetContext(context.Background())
	err := r.Run(script)
	s.pool <- r
	return err
}

func (s *Server) ListItems(req *catalogpb.ListItemsRequest, stream catalogpb.Catalog_ListItemsServer) error {
	if err := s.scratch(); err != nil { // want `idle.Server.scratch, called in handler Server.ListItems, works with context.TODO\(\)`
		return err
	}
	return s.loaded(stream.Context()) // want `idle.Server.loaded, called in handler Server.ListItems, works with context.Background\(\)`
}

// scratch makes a runtime it does not keep, and runs on it with a root.
func (s *Server) scratch() error { // want scratch:"drops ctx"
	r := &runtime{}
	r.SetContext(context.TODO())
	return r.Run("scratch")
}

// loaded hands its root to a method that runs with it, after the request's.
func (s *Server) loaded(ctx context.Context) error { // want loaded:"drops ctx"
	r := s.get()
	if err := r.Load(ctx); err != nil {
		return err
	}
	return r.Load(context.Background())
}
