package feed

import (
	"sync"
	"time"

	"example.com/gen/catalogpb"
)

// pool is shared server state: slots taken and freed by every request.
type pool struct {
	mu    sync.Mutex
	free  int
	freed chan struct{}
	acks  chan int
}

func (p *pool) tryTake() bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.free == 0 {
		return false
	}
	p.free--
	return true
}

func (p *pool) queued() int { return len(p.acks) }

type renamed struct {
	from, to string
	final    bool
}

// Throttled's loops wait on the pool's channels until the pool's state says they may go on:
// only other requests can change that, so each waits past the client's leaving.
type Throttled struct {
	Server
	pool    *pool
	renames chan renamed
}

func (s *Throttled) ListItems(req *catalogpb.ListItemsRequest, stream catalogpb.Catalog_ListItemsServer) error {
	for !s.pool.tryTake() {
		<-s.pool.freed // want `loop in streaming handler Throttled\.ListItems waits on a channel that outlives the request`
	}
	for s.pool.queued() > 0 {
		<-s.pool.freed // want `loop in streaming handler Throttled\.ListItems waits on a channel that outlives the request`
	}
	return stream.Send(&catalogpb.Item{})
}

// UploadItems counts acknowledgements: the count changes only with what arrives.
func (s *Throttled) UploadItems(stream catalogpb.Catalog_UploadItemsServer) error {
	for got := 0; got < 3; {
		got += <-s.pool.acks // want `loop in streaming handler Throttled\.UploadItems waits on a channel that outlives the request`
	}
	name := "items"
	go func() {
		for r := range s.renames { // want `loop in streaming handler Throttled\.UploadItems waits on a channel that outlives the request`
			if r.from == name && r.final {
				return
			}
		}
	}()
	return stream.SendAndClose(&catalogpb.UploadSummary{})
}

// Bounded's loops end on their own: after a count, or when time has passed. Silent.
type Bounded struct {
	Server
	pool *pool
}

func (s *Bounded) ListItems(req *catalogpb.ListItemsRequest, stream catalogpb.Catalog_ListItemsServer) error {
	for i := 0; i < 3; i++ {
		<-s.pool.freed
	}
	start := time.Now()
	for time.Since(start) < time.Second {
		<-s.pool.freed
	}
	return stream.Send(&catalogpb.Item{})
}

// UploadItems waits for acknowledgements, but the count also moves with every message the
// client sends: the analysis cannot tell the loop waits only on the pool. Silent.
func (s *Bounded) UploadItems(stream catalogpb.Catalog_UploadItemsServer) error {
	got := 0
	bump := func() { got++ }
	for got < 3 {
		bump()
		<-s.pool.acks
	}
	return stream.SendAndClose(&catalogpb.UploadSummary{})
}
