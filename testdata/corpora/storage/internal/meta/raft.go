package meta

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"time"

	"example.test/storage/internal/kv"
)

var errStopped = errors.New("meta: proposer stopped")

type proposal struct {
	region uint64
	cmd    []byte
	done   chan result
}

type result struct {
	index uint64
	err   error
}

// Proposer is a single-threaded proposal loop in the style of a raft node:
// proposals are written to the WAL by the caller, then ordered and applied
// by the loop, which lives as long as the server.
type Proposer struct {
	wal       kv.Store
	proposals chan proposal
	stop      chan struct{}

	mu      sync.Mutex
	applied map[uint64]uint64
	next    uint64
}

// NewProposer starts the proposal loop.
func NewProposer(wal kv.Store) *Proposer {
	p := &Proposer{wal: wal, proposals: make(chan proposal, 256), stop: make(chan struct{}), applied: map[uint64]uint64{}}
	go p.loop()
	return p
}

// Propose appends cmd to the WAL of region and waits for it to be ordered.
func (p *Proposer) Propose(ctx context.Context, region uint64, cmd []byte) (uint64, error) {
	if _, err := p.wal.Put(ctx, []byte(fmt.Sprintf("wal/%d/%d", region, time.Now().UnixNano())), cmd); err != nil {
		return 0, err
	}
	pr := proposal{region: region, cmd: cmd, done: make(chan result, 1)}
	select {
	case p.proposals <- pr:
	case <-ctx.Done():
		return 0, ctx.Err()
	case <-p.stop:
		return 0, errStopped
	}
	select {
	case r := <-pr.done:
		return r.index, r.err
	case <-ctx.Done():
		return 0, ctx.Err()
	}
}

func (p *Proposer) loop() {
	for {
		select {
		case <-p.stop:
			return
		case pr := <-p.proposals:
			p.mu.Lock()
			p.next++
			idx := p.next
			p.applied[pr.region] = idx
			p.mu.Unlock()
			pr.done <- result{index: idx}
		}
	}
}

// AppliedIndex returns the last applied index of region.
func (p *Proposer) AppliedIndex(region uint64) uint64 {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.applied[region]
}

// Stop ends the loop.
func (p *Proposer) Stop() { close(p.stop) }
