package session

import (
	"context"
	"hash/fnv"
	"sort"
	"sync"
	"time"

	"google.golang.org/grpc"

	"example.test/vectordb/gen/vdbpb"
	"example.test/vectordb/internal/log"
)

// Ring is the membership of one role, kept current by a watch.
type Ring struct {
	reg  vdbpb.RegistryClient
	role string

	mu      sync.RWMutex
	members map[int64]*vdbpb.Member
	leader  int64

	cancel context.CancelFunc
	done   chan struct{}
}

// NewRing returns a ring of role and starts watching it.
func NewRing(cc grpc.ClientConnInterface, role string) *Ring {
	r := &Ring{reg: vdbpb.NewRegistryClient(cc), role: role, members: map[int64]*vdbpb.Member{}, done: make(chan struct{})}
	ctx, cancel := context.WithCancel(context.Background()) // OK: ctxbackground — the ring's lifetime, ended by Close
	r.cancel = cancel
	go r.watch(ctx)
	return r
}

func (r *Ring) watch(ctx context.Context) {
	defer close(r.done)
	for ctx.Err() == nil {
		stream, err := r.reg.WatchMembers(ctx, &vdbpb.ListMembersRequest{Role: r.role}) // OK: missingdeadline — a server-streaming watch, not a unary call
		if err != nil {
			log.L().Warn("watch members", log.Err(err))
			select {
			case <-ctx.Done():
				return
			case <-time.After(time.Second):
			}
			continue
		}
		for {
			ev, err := stream.Recv()
			if err != nil {
				break
			}
			r.apply(ev)
		}
	}
}

func (r *Ring) apply(ev *vdbpb.MemberEvent) {
	r.mu.Lock()
	defer r.mu.Unlock()
	switch ev.GetKind() {
	case "put":
		r.members[ev.GetMember().GetServerId()] = ev.GetMember()
	case "delete":
		delete(r.members, ev.GetMember().GetServerId())
	}
}

// Members returns a snapshot of the ring, ordered by server id.
func (r *Ring) Members() []*vdbpb.Member {
	r.mu.RLock()
	defer r.mu.RUnlock()
	out := make([]*vdbpb.Member, 0, len(r.members))
	for _, m := range r.members {
		out = append(out, m)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].GetServerId() < out[j].GetServerId() })
	return out
}

// Pick returns the member owning key.
func (r *Ring) Pick(key string) (*vdbpb.Member, bool) {
	ms := r.Members()
	if len(ms) == 0 {
		return nil, false
	}
	h := fnv.New32a()
	_, _ = h.Write([]byte(key))
	return ms[int(h.Sum32())%len(ms)], true
}

// Refresh replaces the ring with the registry's current view.
func (r *Ring) Refresh(ctx context.Context) error {
	resp, err := r.reg.ListMembers(ctx, &vdbpb.ListMembersRequest{Role: r.role})
	if err != nil {
		return err
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	r.members = map[int64]*vdbpb.Member{}
	for _, m := range resp.GetMembers() {
		r.members[m.GetServerId()] = m
	}
	r.leader = resp.GetLeaderId()
	return nil
}

// Leader returns the current leader of the role.
func (r *Ring) Leader() (*vdbpb.Member, error) {
	return r.fetchLeader(context.TODO()) // OK: missingdeadline — exported API over an unexported helper: a fix needs a new API, neither it nor its callers are reported
}

func (r *Ring) fetchLeader(ctx context.Context) (*vdbpb.Member, error) {
	resp, err := r.reg.ListMembers(ctx, &vdbpb.ListMembersRequest{Role: r.role})
	if err != nil {
		return nil, err
	}
	for _, m := range resp.GetMembers() {
		if m.GetServerId() == resp.GetLeaderId() {
			return m, nil
		}
	}
	return nil, nil
}

// Close stops the watch.
func (r *Ring) Close() {
	r.cancel()
	<-r.done
}
