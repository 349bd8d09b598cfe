// Package api hands literals that take a ctx to runners given no ctx of type context.Context.
// Each runner here runs the literal before it returns, or may (Submit hands it to an executor
// out of sight, as errgroup's Go is): the literal's roots are the helper's work. The ctx a
// runner gives the literal is not what decides it — it may be the request's, held in a field
// or a struct, as Retrier's and Job's are — nor whether the runner runs it at once.
//
// Known false positive: Submit's executor runs the task after the handler has returned (a
// worker pool), on the manager's lifetime; out of sight, it cannot be told from errgroup's Go,
// which the handler waits on (Wait).
package api

import (
	"context"
	"net"

	"ctxbackground/runner/pool"

	"example.com/gen/catalogpb"
)

func dial(ctx context.Context, addr string) error {
	var d net.Dialer
	_, err := d.DialContext(ctx, "tcp", addr)
	return err
}

// Server serves the catalog.
type Server struct {
	catalogpb.UnimplementedCatalogServer
	mgr *pool.Manager
}

// refresh hands the refresh to the manager's executor (the known false positive above).
func (s *Server) refresh(id string) { // want refresh:"drops ctx"
	s.mgr.Submit(id, func(context.Context) error {
		return dial(context.Background(), id)
	})
}

// now runs on the manager's ctx, before it returns: the handler waits on work that is not
// cancelled with it.
func (s *Server) now(id string) error { // want now:"drops ctx"
	return s.mgr.RunNow(func(context.Context) error {
		return dial(context.Background(), id)
	})
}

// retry is given the request's ctx through the retrier, and drops it.
func (s *Server) retry(ctx context.Context, id string) error { // want retry:"drops ctx"
	return pool.NewRetrier(ctx).Do(func(context.Context) error {
		return dial(context.Background(), id)
	})
}

// bound hands the literal to a method value whose receiver holds the request's ctx.
func (s *Server) bound(ctx context.Context, id string) error { // want bound:"drops ctx"
	do := pool.NewRetrier(ctx).Do
	return do(func(context.Context) error {
		return dial(context.Background(), id)
	})
}

// job hands the request's ctx to the runner in a struct.
func (s *Server) job(ctx context.Context, id string) error { // want job:"drops ctx"
	return pool.RunJob(pool.Job{Ctx: ctx, Name: id}, func(context.Context) error {
		return dial(context.Background(), id)
	})
}

// closure runs the literal with the request's ctx it captures.
func (s *Server) closure(ctx context.Context, id string) error { // want closure:"drops ctx"
	runner := func(f func(context.Context) error) error { return f(ctx) }
	return runner(func(context.Context) error {
		return dial(context.Background(), id)
	})
}

// task hands the literal over as a pool.Task, which RunTask runs: a known miss. The conversion
// to the named func type is not followed (on real code it led only into a client cache's
// build, a client's own lifetime).
func (s *Server) task(ctx context.Context, id string) error {
	return pool.NewRetrier(ctx).RunTask(func(context.Context) error {
		return dial(context.Background(), id)
	})
}

// captured keeps the literal in a variable that the literal it hands over calls.
func (s *Server) captured(ctx context.Context, id string) error { // want captured:"drops ctx"
	work := func() error { return dial(context.Background(), id) }
	return pool.NewRetrier(ctx).Do(func(context.Context) error { return work() })
}

// handedInside hands the literal over from inside another literal, which it calls.
func (s *Server) handedInside(ctx context.Context, id string) error { // want handedInside:"drops ctx"
	work := func(context.Context) error { return dial(context.Background(), id) }
	call := func() error { return pool.NewRetrier(ctx).Do(work) }
	return call()
}

// handedInsideKept hands it over from inside a literal it returns, not run here.
func (s *Server) handedInsideKept(ctx context.Context, id string) func() error {
	work := func(context.Context) error { return dial(context.Background(), id) }
	return func() error { return pool.NewRetrier(ctx).Do(work) }
}

// capturedKept keeps it in a literal that is stored, not run: nothing runs work here.
func (s *Server) capturedKept(id string) func() error {
	work := func() error { return dial(context.Background(), id) }
	return func() error { return work() }
}

// recursive retries through a literal that calls itself by its local.
func (s *Server) recursive(id string) error { // want recursive:"drops ctx"
	var try func(n int) error
	try = func(n int) error {
		if err := dial(context.Background(), id); err != nil && n > 0 {
			return try(n - 1)
		}
		return nil
	}
	return try(3)
}

// passes works with the ctx each runner gives it: nothing of its own.
func (s *Server) passes(ctx context.Context, id string) error {
	return pool.NewRetrier(ctx).Do(func(ctx context.Context) error {
		return dial(ctx, id)
	})
}

func (s *Server) GetItem(ctx context.Context, req *catalogpb.GetItemRequest) (*catalogpb.Item, error) {
	s.refresh(req.GetId())          // want `api.Server.refresh, called in handler Server.GetItem, works with context.Background\(\)`
	_ = s.now(req.GetId())          // want `api.Server.now, called in handler Server.GetItem, works with context.Background\(\)`
	_ = s.retry(ctx, req.GetId())   // want `api.Server.retry, called in handler Server.GetItem, works with context.Background\(\)`
	_ = s.bound(ctx, req.GetId())   // want `api.Server.bound, called in handler Server.GetItem, works with context.Background\(\)`
	_ = s.job(ctx, req.GetId())     // want `api.Server.job, called in handler Server.GetItem, works with context.Background\(\)`
	_ = s.closure(ctx, req.GetId()) // want `api.Server.closure, called in handler Server.GetItem, works with context.Background\(\)`
	_ = s.task(ctx, req.GetId())
	_ = s.captured(ctx, req.GetId()) // want `api.Server.captured, called in handler Server.GetItem, works with context.Background\(\)`
	_ = s.capturedKept(req.GetId())
	_ = s.handedInside(ctx, req.GetId()) // want `api.Server.handedInside, called in handler Server.GetItem, works with context.Background\(\)`
	_ = s.handedInsideKept(ctx, req.GetId())
	_ = s.recursive(req.GetId()) // want `api.Server.recursive, called in handler Server.GetItem, works with context.Background\(\)`
	_ = s.passes(ctx, req.GetId())
	return &catalogpb.Item{}, nil
}
