// Package objects starts objects on the server's lifetime from a handler: a callee that makes
// the ctx it is given the lifetime of an object — deriving a ctx from it and keeping the cancel
// in a field for the object's Stop — is not reported; one that works with the ctx, or cancels
// its derivation itself, is.
package objects

import (
	"context"
	"sync"
	"time"

	"example.com/gen/catalogpb"
)

func fetch(ctx context.Context, id string) error { return nil }

// subscription follows items until it is stopped.
type subscription struct {
	ctx    context.Context
	cancel context.CancelFunc
	items  chan string
}

// Run makes the subscription's lifetime from ctx and keeps its cancel for Stop.
func (s *subscription) Run(ctx context.Context) {
	s.ctx, s.cancel = context.WithCancel(ctx)
	go s.follow()
}

func (s *subscription) follow() {
	for {
		select {
		case <-s.ctx.Done():
			return
		case s.items <- "item":
		}
	}
}

// RunAndPrime starts the subscription and also fetches with the ctx it is given: that fetch is
// work on the ctx, not the object's.
func (s *subscription) RunAndPrime(ctx context.Context, id string) error {
	s.ctx, s.cancel = context.WithCancel(ctx)
	go s.follow()
	return fetch(ctx, id)
}

// Stop ends the subscription.
func (s *subscription) Stop() { s.cancel() }

// prime fetches with the ctx it is given: work, whatever object it is a method of.
func (s *subscription) prime(ctx context.Context, id string) error { return fetch(ctx, id) }

// once derives a ctx and cancels it itself: nothing keeps it.
func (s *subscription) once(ctx context.Context, id string) error {
	c, cancel := context.WithCancel(ctx)
	defer cancel()
	return fetch(c, id)
}

// Server keeps its lifetime ctx in a field.
type Server struct {
	catalogpb.UnimplementedCatalogServer
	base context.Context
}

func (s *Server) GetItem(ctx context.Context, req *catalogpb.GetItemRequest) (*catalogpb.Item, error) {
	sub := &subscription{items: make(chan string)}
	sub.Run(s.base)
	defer sub.Stop()
	if err := sub.prime(s.base, req.GetId()); err != nil { // want `subscription\.prime in handler Server\.GetItem uses receiver field base, a ctx that outlives the request; pass ctx`
		return nil, err
	}
	if err := sub.RunAndPrime(s.base, req.GetId()); err != nil { // want `subscription\.RunAndPrime in handler Server\.GetItem uses receiver field base, a ctx that outlives the request; pass ctx`
		return nil, err
	}
	if err := sub.once(s.base, req.GetId()); err != nil { // want `subscription\.once in handler Server\.GetItem uses receiver field base, a ctx that outlives the request; pass ctx`
		return nil, err
	}
	select {
	case id := <-sub.items:
		return &catalogpb.Item{Id: id}, nil
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}

// Pool starts workers on its lifetime ctx; StopWorker ends one.
type Pool struct {
	catalogpb.UnimplementedCatalogServer
	root    context.Context
	workers map[string]context.CancelFunc
	exec    executor
}

// executor runs functions on workers out of sight.
type executor interface{ Submit(func()) }

func work(ctx context.Context, id string) {}

// GetItem starts a worker whose ctx is a child of the pool's, its cancel kept by the worker's
// id: the worker's lifetime, which StopWorker ends, not the request's.
func (p *Pool) GetItem(ctx context.Context, req *catalogpb.GetItemRequest) (*catalogpb.Item, error) {
	wctx, cancel := context.WithCancel(p.root)
	p.workers[req.GetId()] = cancel
	go work(wctx, req.GetId())

	local := map[string]context.CancelFunc{}
	lctx, lcancel := context.WithCancel(p.root)
	local[req.GetId()] = lcancel
	if err := fetch(lctx, req.GetId()); err != nil { // want `objects\.fetch in handler Pool\.GetItem uses receiver field root, a ctx that outlives the request; pass ctx`
		return nil, err
	}

	// A worker handed to the executor in a literal, on a child of the pool's ctx whose cancel
	// the pool keeps by the worker's id: the worker's lifetime, as the go statement's above.
	ectx, ecancel := context.WithCancel(p.root)
	p.workers[req.GetId()+"/exec"] = ecancel
	p.exec.Submit(func() {
		defer ecancel()
		work(ectx, req.GetId())
	})
	// The worker's ctx used by the handler's go statement and by a literal handed to the
	// executor: go/ssa keeps it in a cell the handler reads too. The worker's lifetime either way.
	bctx, bcancel := context.WithCancel(p.root)
	p.workers[req.GetId()+"/both"] = bcancel
	go work(bctx, req.GetId())
	p.exec.Submit(func() { work(bctx, req.GetId()) })
	// The same literal, its cancel only deferred in it: the pool keeps nothing.
	qctx, qcancel := context.WithCancel(p.root)
	p.exec.Submit(func() {
		defer qcancel()
		_ = fetch(qctx, req.GetId()) // want `objects\.fetch in handler Pool\.GetItem uses receiver field root, a ctx that outlives the request; pass ctx`
	})

	// A captured cancel variable reused for a second child, cancelled as the handler returns:
	// which cancel the pool keeps is not known, so neither child is taken as kept.
	rctx, rcancel := context.WithCancel(p.root)
	p.workers[req.GetId()+"/reused"] = rcancel
	p.exec.Submit(func() {
		defer rcancel()
		work(rctx, req.GetId()) // want `objects\.work in handler Pool\.GetItem uses receiver field root, a ctx that outlives the request; pass ctx`
	})
	sctx, scancel := context.WithCancel(p.root)
	rcancel = scancel
	defer rcancel()
	if err := fetch(sctx, req.GetId()); err != nil { // want `objects\.fetch in handler Pool\.GetItem uses receiver field root, a ctx that outlives the request; pass ctx`
		return nil, err
	}

	// A cancel kept only in a local struct, called through it as the handler returns: no
	// object keeps the child, which is the pool's lifetime used for the request.
	gctx, gcancel := context.WithCancel(p.root)
	g := guard{stop: gcancel}
	defer g.stop()
	if err := fetch(gctx, req.GetId()); err != nil { // want `objects\.fetch in handler Pool\.GetItem uses receiver field root, a ctx that outlives the request; pass ctx`
		return nil, err
	}
	return &catalogpb.Item{Id: req.GetId()}, nil
}

// guard calls a cancel function when asked to.
type guard struct{ stop context.CancelFunc }

// StopWorker ends a worker.
func (p *Pool) StopWorker(id string) { p.workers[id]() }

// Conns keeps each connection's timer in a sync.Map: a child of its lifetime ctx whose cancel
// it stores by the connection's id, directly or through a helper of the package, for Close.
type Conns struct {
	catalogpb.UnimplementedCatalogServer
	life    context.Context
	cancels sync.Map
}

func (c *Conns) keep(id string, cancel func()) { c.cancels.Store(id, cancel) }

// GetItem starts the connection's expiry timers; Close ends them.
func (c *Conns) GetItem(ctx context.Context, req *catalogpb.GetItemRequest) (*catalogpb.Item, error) {
	tctx, cancel := context.WithCancel(c.life)
	c.cancels.Store(req.GetId(), cancel)
	go work(tctx, req.GetId())

	hctx, hcancel := context.WithCancel(c.life)
	c.keep(req.GetId()+"/helper", hcancel)
	go work(hctx, req.GetId())

	// A child replaced by another on one path, the first cancelled there: the cancel kept is
	// whichever is live, and so is the child.
	pctx, pcancel := context.WithCancel(c.life)
	if req.GetId() == "" {
		pcancel()
		pctx, pcancel = context.WithTimeout(c.life, time.Minute)
	}
	c.keep(req.GetId()+"/phi", pcancel)
	go work(pctx, req.GetId())

	// A kept child on one path, the lifetime itself on the other: reported.
	xctx, xcancel := context.WithCancel(c.life)
	c.keep(req.GetId()+"/either", xcancel)
	if req.GetId() == "-" {
		xctx = c.life
	}
	go work(xctx, req.GetId()) // want `objects\.work in handler Conns\.GetItem uses receiver field life, a ctx that outlives the request; pass ctx`

	// Kept in a sync.Map local to the handler: nothing outlives it, the child is the
	// connections' lifetime used for the request.
	var local sync.Map
	lctx, lcancel := context.WithCancel(c.life)
	local.Store(req.GetId(), lcancel)
	go work(lctx, req.GetId()) // want `objects\.work in handler Conns\.GetItem uses receiver field life, a ctx that outlives the request; pass ctx`

	// Cancelled as the handler returns, never kept: reported.
	dctx, dcancel := context.WithCancel(c.life)
	defer dcancel()
	go work(dctx, req.GetId()) // want `objects\.work in handler Conns\.GetItem uses receiver field life, a ctx that outlives the request; pass ctx`
	return &catalogpb.Item{Id: req.GetId()}, nil
}

// Close ends a connection's timers.
func (c *Conns) Close(id string) {
	if cancel, ok := c.cancels.LoadAndDelete(id); ok {
		cancel.(context.CancelFunc)()
	}
}
