package datanode

import (
	"context"
	"hash/fnv"
	"sync"
	"time"

	"example.test/vectordb/gen/vdbpb"
	"example.test/vectordb/internal/log"
)

// allocator keeps a block of ids from the root coordinator and refills it
// in the background.
type allocator struct {
	rc  vdbpb.RootCoordClient
	ctx context.Context

	mu        sync.Mutex
	next, end int64
	segs      map[string]int64
	need      chan struct{}
}

func newAllocator(ctx context.Context, rc vdbpb.RootCoordClient) *allocator {
	return &allocator{rc: rc, ctx: ctx, segs: map[string]int64{}, need: make(chan struct{}, 1)}
}

func (a *allocator) refillLoop() {
	for {
		select {
		case <-a.ctx.Done():
			return
		case <-a.need:
		}
		ctx, cancel := context.WithTimeout(a.ctx, 10*time.Second)
		resp, err := a.rc.AllocID(ctx, &vdbpb.AllocIDRequest{Count: 10000}) // OK: missingdeadline — each refill is bounded
		cancel()
		if err != nil {
			log.L().Warn("alloc ids", log.Err(err))
			continue
		}
		a.mu.Lock()
		a.next, a.end = resp.GetBegin(), resp.GetBegin()+int64(resp.GetCount())
		a.mu.Unlock()
	}
}

func (a *allocator) segmentFor(vchannel string, pk int64) int64 {
	a.mu.Lock()
	defer a.mu.Unlock()
	if id, ok := a.segs[vchannel]; ok {
		return id
	}
	if a.next >= a.end {
		select {
		case a.need <- struct{}{}:
		default:
		}
		h := fnv.New64a()
		_, _ = h.Write([]byte(vchannel))
		return int64(h.Sum64() >> 1)
	}
	id := a.next
	a.next++
	a.segs[vchannel] = id
	return id
}
