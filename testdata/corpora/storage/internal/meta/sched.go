package meta

import (
	"context"
	"sync/atomic"
	"time"

	"example.test/storage/gen/storagepb"
)

// Member is a meta-service replica.
type Member struct {
	Name    string
	Version uint64
}

// Members tracks the meta-service membership and its leader.
type Members struct {
	self   string
	leader atomic.Pointer[Member]
}

// Leader returns the current leader; ctx is part of the membership
// interface shared with the etcd-backed implementation.
func (m *Members) Leader(_ context.Context) *Member {
	if l := m.leader.Load(); l != nil {
		return l
	}
	return &Member{}
}

// IsLeader reports whether this replica leads.
func (m *Members) IsLeader() bool { return m.leader.Load() != nil && m.leader.Load().Name == m.self }

// scheduler turns region heartbeats into leader-transfer operations.
type scheduler struct {
	regions *RegionManager
	ctx     context.Context
	cancel  context.CancelFunc
	in      chan *storagepb.Region
	out     chan *storagepb.RegionHeartbeatResponse
}

func newScheduler(regions *RegionManager) *scheduler {
	return &scheduler{regions: regions, in: make(chan *storagepb.Region, 16), out: make(chan *storagepb.RegionHeartbeatResponse, 16)}
}

// Start runs the scheduler until Stop or until ctx ends.
func (sc *scheduler) Start(ctx context.Context) {
	sc.ctx, sc.cancel = context.WithCancel(ctx)
	go sc.run()
}

func (sc *scheduler) Stop() { sc.cancel() }

func (sc *scheduler) Feed(r *storagepb.Region) {
	select {
	case sc.in <- r:
	default:
	}
}

func (sc *scheduler) Ops() <-chan *storagepb.RegionHeartbeatResponse { return sc.out }

func (sc *scheduler) run() {
	t := time.NewTicker(10 * time.Second)
	defer t.Stop()
	var pending []uint64
	for {
		select {
		case <-sc.ctx.Done():
			return
		case r := <-sc.in:
			if r.GetLeaderStore() == 0 {
				pending = append(pending, r.GetId())
			}
		case <-t.C:
			for _, id := range pending {
				r, err := sc.regions.region(sc.ctx, id, true)
				if err != nil || r == nil {
					continue
				}
				select {
				case sc.out <- &storagepb.RegionHeartbeatResponse{RegionId: id, TransferLeaderTo: r.GetLeaderStore()}:
				case <-sc.ctx.Done():
					return
				}
			}
			pending = pending[:0]
		}
	}
}
