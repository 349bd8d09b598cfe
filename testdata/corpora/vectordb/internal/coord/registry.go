package coord

import (
	"context"
	"sync"
	"sync/atomic"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	"example.test/vectordb/gen/vdbpb"
	"example.test/vectordb/internal/grpcx"
	"example.test/vectordb/internal/lifecycle"
	"example.test/vectordb/internal/log"
)

// healthChecker answers whether the registry can serve.
type healthChecker interface {
	Check(ctx context.Context) error
}

// memHealth answers from memory.
type memHealth struct{ base *lifecycle.Base }

func (h memHealth) Check(ctx context.Context) error {
	if err := h.base.CheckHealthy(); err != nil {
		log.Ctx(ctx).Warn("registry unhealthy", log.Err(err))
		return err
	}
	return nil
}

// Registry keeps sessions under leases.
type Registry struct {
	vdbpb.UnimplementedRegistryServer
	*lifecycle.Base

	meta   *metaTable
	health healthChecker

	mu       sync.Mutex
	members  map[int64]*vdbpb.Member
	leases   map[int64]time.Time
	watchers map[int]chan *vdbpb.MemberEvent
	leaseW   map[int64]*leaseWatcher
	conns    map[int64]*grpc.ClientConn
	nextW    int
	nextID   atomic.Int64
	leader   atomic.Int64

	ctx    context.Context
	cancel context.CancelFunc
}

// NewRegistry returns a registry sharing the root coordinator's meta table.
func NewRegistry(rc *RootCoord) *Registry {
	r := &Registry{
		Base:     lifecycle.NewBase("registry"),
		meta:     rc.meta,
		members:  map[int64]*vdbpb.Member{},
		leases:   map[int64]time.Time{},
		watchers: map[int]chan *vdbpb.MemberEvent{},
		leaseW:   map[int64]*leaseWatcher{},
		conns:    map[int64]*grpc.ClientConn{},
	}
	r.health = memHealth{base: r.Base}
	r.ctx, r.cancel = context.WithCancel(context.Background()) // OK: ctxbackground — constructor: the registry's lifetime
	return r
}

func (r *Registry) Start() error {
	go r.expireLoop()
	r.SetState(lifecycle.Healthy)
	return nil
}

func (r *Registry) Stop() error { r.cancel(); r.SetState(lifecycle.Stopped); return nil }

func (r *Registry) expireLoop() {
	t := time.NewTicker(time.Second)
	defer t.Stop()
	for {
		select {
		case <-r.ctx.Done():
			return
		case now := <-t.C:
			r.mu.Lock()
			for id, exp := range r.leases {
				if now.After(exp) {
					m := r.members[id]
					delete(r.leases, id)
					delete(r.members, id)
					if w := r.leaseW[id]; w != nil {
						w.Stop()
						delete(r.leaseW, id)
					}
					if cc := r.conns[id]; cc != nil {
						_ = cc.Close()
						delete(r.conns, id)
					}
					r.notifyLocked(&vdbpb.MemberEvent{Kind: "delete", Member: m})
				}
			}
			r.mu.Unlock()
		}
	}
}

func (r *Registry) notifyLocked(ev *vdbpb.MemberEvent) {
	for _, ch := range r.watchers {
		select {
		case ch <- ev:
		default: // a slow watcher re-lists
		}
	}
}

func (r *Registry) Register(ctx context.Context, req *vdbpb.RegisterRequest) (*vdbpb.RegisterResponse, error) {
	id := r.nextID.Add(1)
	m := &vdbpb.Member{ServerId: id, Role: req.GetRole(), Addr: req.GetAddr(), LeaseId: id}
	r.mu.Lock()
	r.members[id] = m
	r.leases[id] = time.Now().Add(time.Duration(req.GetTtlSeconds()) * time.Second)
	r.notifyLocked(&vdbpb.MemberEvent{Kind: "put", Member: m})
	r.mu.Unlock()
	r.leader.CompareAndSwap(0, id)

	// Keep a connection to the member for health probes, and watch its lease.
	cc, err := grpcx.Dial(r.ctx, req.GetAddr()) // OK: ctxflow — a dial helper that only dials with the ctx; the registry keeps the connection
	if err != nil {
		return nil, status.Errorf(codes.InvalidArgument, "bad member address %q: %v", req.GetAddr(), err) // OK: statusmask — the dial was given the registry's ctx, not the request's
	}
	w := &leaseWatcher{id: id, reg: r, probe: vdbpb.NewRegistryClient(cc)}
	w.Start(r.ctx) // OK: ctxflow — Start uses the ctx only to make the watcher's lifetime; the registry keeps the watcher and Stops it
	r.mu.Lock()
	r.conns[id] = cc
	r.leaseW[id] = w
	r.mu.Unlock()
	log.Ctx(r.ctx).Info("registered", log.String("role", req.GetRole()), log.Int64("id", id)) // OK: ctxflow — log only reads values of the registry's ctx
	return &vdbpb.RegisterResponse{Status: &vdbpb.Status{}, ServerId: id, LeaseId: id}, nil
}

func (r *Registry) KeepAlive(ctx context.Context, req *vdbpb.KeepAliveRequest) (*vdbpb.KeepAliveResponse, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if _, ok := r.leases[req.GetLeaseId()]; !ok {
		return nil, status.Errorf(codes.NotFound, "lease %d expired", req.GetLeaseId())
	}
	r.leases[req.GetLeaseId()] = time.Now().Add(30 * time.Second)
	return &vdbpb.KeepAliveResponse{Status: &vdbpb.Status{}, TtlSeconds: 30}, nil
}

func (r *Registry) ListMembers(ctx context.Context, req *vdbpb.ListMembersRequest) (*vdbpb.ListMembersResponse, error) {
	if err := r.health.Check(r.ctx); err != nil { // OK: ctxflow — the only value the field ever holds is memHealth, which answers from memory and logs with the ctx
		return nil, status.Error(codes.Unavailable, err.Error()) // OK: statusmask — error of a check not given the request's ctx
	}
	resp := &vdbpb.ListMembersResponse{Status: &vdbpb.Status{}, LeaderId: r.leaderID(context.TODO())} // OK: ctxbackground — leaderID never refers to its ctx (a getter)
	r.mu.Lock()
	for _, m := range r.members {
		if req.GetRole() == "" || m.GetRole() == req.GetRole() {
			resp.Members = append(resp.Members, m)
		}
	}
	r.mu.Unlock()
	return resp, nil
}

func (r *Registry) WatchMembers(req *vdbpb.ListMembersRequest, stream vdbpb.Registry_WatchMembersServer) error {
	ch := make(chan *vdbpb.MemberEvent, 64)
	r.mu.Lock()
	r.nextW++
	w := r.nextW
	r.watchers[w] = ch
	r.mu.Unlock()
	defer func() {
		r.mu.Lock()
		delete(r.watchers, w)
		r.mu.Unlock()
	}()
	for {
		select {
		case <-stream.Context().Done():
			return stream.Context().Err()
		case ev := <-ch:
			if req.GetRole() != "" && ev.GetMember().GetRole() != req.GetRole() {
				continue
			}
			if err := stream.Send(ev); err != nil {
				return err
			}
		}
	}
}

func (r *Registry) GetClusterID(ctx context.Context, _ *vdbpb.GetClusterIDRequest) (*vdbpb.GetClusterIDResponse, error) {
	id, err := r.meta.ClusterID(context.Background()) // OK: ctxbackground — ClusterID works with its ctx only on the first use of state it keeps in an atomic field
	if err != nil {
		return nil, status.Errorf(codes.Internal, "cluster id: %v", err) // OK: statusmask — the call was made with a fresh context, not the request's
	}
	return &vdbpb.GetClusterIDResponse{ClusterId: id}, nil
}

// leaderID returns the current leader.
func (r *Registry) leaderID(ctx context.Context) int64 { return r.leader.Load() }

func (r *Registry) snapshot(role string) []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	var out []string
	for _, m := range r.members {
		if role == "" || m.GetRole() == role {
			out = append(out, m.GetAddr())
		}
	}
	return out
}

// leaseWatcher probes a member until its lease ends.
type leaseWatcher struct {
	id     int64
	reg    *Registry
	probe  vdbpb.RegistryClient
	ctx    context.Context
	cancel context.CancelFunc
}

// Start starts the watcher; it runs until Stop.
func (w *leaseWatcher) Start(ctx context.Context) {
	w.ctx, w.cancel = context.WithCancel(ctx)
	go w.run()
}

func (w *leaseWatcher) run() {
	t := time.NewTicker(10 * time.Second)
	defer t.Stop()
	for {
		select {
		case <-w.ctx.Done():
			return
		case <-t.C:
			pctx, cancel := context.WithTimeout(w.ctx, 2*time.Second)
			_, err := w.probe.GetClusterID(pctx, &vdbpb.GetClusterIDRequest{})
			cancel()
			if err != nil {
				log.Ctx(w.ctx).Warn("member probe failed", log.Int64("member", w.id), log.Err(err))
			}
		}
	}
}

// Stop ends the watcher.
func (w *leaseWatcher) Stop() { w.cancel() }
