// Package meta implements the MetaService: the region table, the id and
// timestamp allocators, proposals and region watches.
package meta

import (
	"context"
	"crypto/rand"
	"database/sql"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
	"sync"
	"time"

	"example.test/storage/gen/storagepb"
	"example.test/storage/internal/kv"
	"example.test/storage/internal/lifecycle"
	"example.test/storage/internal/obs"
	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
)

const traceProposals = false

// Server is the MetaService.
type Server struct {
	storagepb.UnimplementedMetaServiceServer

	baseCtx context.Context
	regions *RegionManager
	ids     *IDAllocator
	tso     *TSO
	raft    *Proposer
	hub     *Hub
	events  *EventLog
	members *Members
	gc      *SafePoints
	cfg     kv.ConfigStore

	heartbeats obs.Counter

	mu       sync.Mutex
	stores   map[uint64]*storagepb.StoreHeartbeatRequest
	monitors map[uint64]context.CancelFunc
}

// NewServer builds the meta service. ctx is the server's lifetime.
func NewServer(ctx context.Context, store kv.Store, db *sql.DB, cfg kv.ConfigStore, self string) *Server {
	hub := &Hub{subs: map[*Subscription]struct{}{}}
	events := &EventLog{db: db, hub: hub}
	hub.log = events
	return &Server{
		baseCtx:    ctx,
		regions:    NewRegionManager(store),
		ids:        NewIDAllocator(store),
		tso:        NewTSO(store),
		raft:       NewProposer(store),
		hub:        hub,
		events:     events,
		members:    &Members{self: self},
		gc:         &SafePoints{store: store},
		cfg:        cfg,
		heartbeats: obs.NewCounter("meta_store_heartbeats_total"),
		stores:     map[uint64]*storagepb.StoreHeartbeatRequest{},
		monitors:   map[uint64]context.CancelFunc{},
	}
}

// Register registers the service on srv.
func (s *Server) Register(srv *grpc.Server) { storagepb.RegisterMetaServiceServer(srv, s) }

func (s *Server) GetRegion(ctx context.Context, req *storagepb.GetRegionRequest) (*storagepb.GetRegionResponse, error) {
	obs.Info(context.TODO(), "meta: get region", "key", req.GetKey(), "id", req.GetRegionId()) // OK: ctxbackground — root used only to carry values into a module logger that reads the ctx's fields
	if id := req.GetRegionId(); id != 0 {
		if r, _ := s.regions.region(ctx, id, false); r != nil { // OK: ctxbackground — region loads with Background only when its bool parameter is true; this call passes false
			return &storagepb.GetRegionResponse{Region: r}, nil
		}
	}
	r, err := s.regions.Lookup(ctx, req.GetKey())
	if err != nil {
		if errors.Is(err, ErrNoRegion) {
			return nil, status.Errorf(codes.NotFound, "no region covers %q", req.GetKey())
		}
		return nil, status.Errorf(codes.Internal, "lookup region: %v", err) // BUG: statusmask
	}
	return &storagepb.GetRegionResponse{Region: r}, nil
}

func (s *Server) AllocID(ctx context.Context, req *storagepb.AllocIDRequest) (*storagepb.AllocIDResponse, error) {
	n := max(req.GetCount(), 1)
	first, err := s.ids.Alloc(ctx, n) // OK: ctxbackground — Alloc's root is inside the literal its sync.Once field runs (one-time load of the id base)
	if err != nil {
		if code := grpcCode(err); code != codes.Unknown {
			return nil, status.Error(code, err.Error())
		}
		return nil, status.Errorf(codes.Unavailable, "alloc %d ids: %v", n, err) // OK: statusmask — the error went through grpcCode, a mapping helper of the module, first
	}
	go s.recordAlloc(obs.Detach(ctx), first, n) // OK: ctxbackground — obs.Detach is a documented hand-made detach (reads the ctx's values, returns a fresh root wrapped only in WithValue): callers get a detached ctx, not a root
	return &storagepb.AllocIDResponse{First: first, Count: n}, nil
}

func (s *Server) recordAlloc(ctx context.Context, first uint64, n uint32) {
	ch := RegionChange{Index: first, State: &storagepb.Region{Id: first, Version: uint64(n)}}
	if err := s.events.Publish(ctx, ch); err != nil {
		obs.Warn(ctx, "meta: allocation event lost", "first", first, "err", err)
	}
}

func (s *Server) GetTimestamp(ctx context.Context, req *storagepb.GetTimestampRequest) (*storagepb.GetTimestampResponse, error) {
	phys, logical, err := s.tso.Next(ctx, max(req.GetCount(), 1)) // OK: ctxbackground — Next syncs with Background only while its state pointer is nil, then sets it (first use of shared state)
	if err != nil {
		if ctx.Err() != nil {
			return nil, status.FromContextError(ctx.Err()).Err()
		}
		return nil, status.Errorf(codes.Unavailable, "tso: %v", err) // OK: statusmask — the handler checks ctx.Err() before translating
	}
	return &storagepb.GetTimestampResponse{Physical: phys, Logical: logical}, nil
}

func (s *Server) Propose(ctx context.Context, req *storagepb.ProposeRequest) (*storagepb.ProposeResponse, error) {
	if _, err := s.cfg.Lookup(ctx, "tenant/"+req.GetTenant()); err != nil {
		return nil, status.Errorf(codes.PermissionDenied, "tenant %q: %v", req.GetTenant(), err) // OK: statusmask — every ConfigStore in sight (StaticConfig, WatchedConfig) never refers to its ctx: this error carries no deadline
	}
	obs.Inject("meta/beforePropose", func() {
		_, _ = s.raft.Propose(context.Background(), req.GetRegionId(), []byte("noop")) // OK: ctxbackground — literal handed to a failpoint marker that never refers to its parameter: it never runs
	})
	pctx, span := obs.StartLinked(ctx, "meta.Propose") // BUG: ctxbackground
	defer span.End()
	idx, err := s.raft.Propose(pctx, req.GetRegionId(), req.GetCommand())
	if err != nil {
		return nil, status.Error(codes.Internal, fmt.Sprintf("propose to region %d: %v", req.GetRegionId(), err)) // OK: statusmask — the error is of a call made with a fresh root (StartLinked's), not the request's deadline; the root is ctxbackground's finding
	}
	go s.notifyApplied(ctx, req.GetRegionId(), idx)
	if traceProposals {
		s.dumpWAL(context.Background(), req.GetRegionId()) // OK: ctxbackground — block kept from running by a false constant
	}
	return &storagepb.ProposeResponse{Index: idx}, nil
}

func (s *Server) dumpWAL(ctx context.Context, region uint64) {
	_ = s.events.Replay(ctx, 0, func(ev *storagepb.RegionEvent) bool {
		obs.Info(ctx, "wal", "region", region, "event", ev.String())
		return true
	})
}

func (s *Server) notifyApplied(ctx context.Context, region, idx uint64) {
	for s.raft.AppliedIndex(region) < idx {
		time.Sleep(5 * time.Millisecond) // BUG: ctxless
	}
	r, _ := s.regions.region(ctx, region, false)
	s.emitChange(ctx, RegionChange{Region: region, Index: idx, State: r})
}

func (s *Server) emitChange(ctx context.Context, ch RegionChange) {
	ectx := context.WithoutCancel(ctx)
	// ^BUG: detach
	if err := s.events.Publish(ectx, ch); err != nil {
		obs.Warn(ctx, "meta: change event lost", "region", ch.Region, "err", err)
	}
}

func (s *Server) StoreHeartbeat(ctx context.Context, req *storagepb.StoreHeartbeatRequest) (*storagepb.StoreHeartbeatResponse, error) {
	s.heartbeats.Add(context.Background(), 1, obs.Attr{Key: "store", Value: req.GetAddress()}) // OK?: ctxbackground — metric record: Add of an OTel-shaped counter interface whose implementations ignore the ctx (deadlinelint, precision issue: an OK? — the instrument is an interface of the module whose value comes from out of sight, a parameter or another package's constructor or exported variable, so what its Record/Add does with a ctx is not known; OpenTelemetry's own instruments are known by type)
	s.mu.Lock()
	_, known := s.stores[req.GetStoreId()]
	s.stores[req.GetStoreId()] = req
	if !known {
		mctx, cancel := context.WithCancel(s.baseCtx)
		s.monitors[req.GetStoreId()] = cancel
		go s.monitorStore(mctx, req.GetStoreId()) // OK: ctxflow — child of the server's long-lived ctx whose cancel the server keeps by key in a map (ended by forgetStore)
	}
	s.mu.Unlock()
	if !known {
		go s.announceStore(lifecycle.Outlive(ctx), req) // OK: detach — the WithoutCancel is in lifecycle.Outlive, a helper whose job is the detach and whose doc comment gives the reason
	}
	leader := s.members.Leader(context.Background()) // OK: ctxbackground — root handed to a getter that never refers to its ctx
	return &storagepb.StoreHeartbeatResponse{ClusterVersion: leader.Version}, nil
}

func (s *Server) announceStore(ctx context.Context, req *storagepb.StoreHeartbeatRequest) {
	r := &storagepb.Region{LeaderStore: req.GetStoreId()}
	if err := s.events.Publish(ctx, RegionChange{State: r}); err != nil {
		obs.Warn(ctx, "meta: store announcement lost", "store", req.GetStoreId(), "err", err)
	}
}

func (s *Server) monitorStore(ctx context.Context, storeID uint64) {
	t := time.NewTicker(30 * time.Second)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
		s.mu.Lock()
		_, alive := s.stores[storeID]
		delete(s.stores, storeID)
		s.mu.Unlock()
		if !alive {
			mctx, cancel := context.WithTimeout(ctx, 5*time.Second)
			s.regions.MarkStale(mctx, storeID)
			cancel()
		}
	}
}

// forgetStore stops monitoring storeID.
func (s *Server) forgetStore(storeID uint64) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if cancel, ok := s.monitors[storeID]; ok {
		cancel()
		delete(s.monitors, storeID)
	}
}

func (s *Server) GetGCSafePoint(ctx context.Context, req *storagepb.GetGCSafePointRequest) (*storagepb.GetGCSafePointResponse, error) {
	sp, err := s.gc.Load(lifecycle.Context()) // BUG: ctxflow
	if err != nil {
		return nil, err
	}
	obs.Info(s.baseCtx, "meta: served gc safe point", "safe_point", sp) // OK: ctxflow — the callee only carries the ctx's values into a log line
	return &storagepb.GetGCSafePointResponse{SafePoint: sp}, nil
}

func (s *Server) WatchRegions(req *storagepb.WatchRegionsRequest, stream grpc.ServerStreamingServer[storagepb.RegionEvent]) error {
	ctx := stream.Context()
	sub := s.hub.Subscribe(req.GetSinceVersion()) // OK: ctxbackground — Subscribe's root has its cancel kept in the Subscription (ended by Close) and is used only in the pump goroutine it starts
	defer sub.Close()
	for {
		select {
		case <-ctx.Done():
			return ctx.Err()
		case ev, ok := <-sub.C:
			if !ok {
				return nil
			}
			if err := stream.Send(ev); err != nil {
				return err
			}
		}
	}
}

func (s *Server) RegionHeartbeat(stream grpc.BidiStreamingServer[storagepb.RegionHeartbeatRequest, storagepb.RegionHeartbeatResponse]) error {
	ctx := stream.Context()
	sched := newScheduler(s.regions)
	sched.Start(s.baseCtx) // OK: ctxflow — Start uses the server ctx only to make the scheduler's lifetime, keeping the cancel for Stop
	defer sched.Stop()
	errc := make(chan error, 1)
	go func() {
		var lastStore uint64
		for {
			req, err := stream.Recv()
			if err != nil {
				if lastStore != 0 {
					cctx, cancel := context.WithTimeout(context.Background(), 2*time.Second) // OK: ctxbackground — bounded fresh ctx made only on the way out of a failure: the goroutine's Recv loop returns on this error
					s.regions.MarkStale(cctx, lastStore)
					cancel()
				}
				errc <- err
				return
			}
			lastStore = req.GetRegion().GetLeaderStore()
			if err := s.observe(ctx, req.GetRegion()); err != nil { // OK: ctxbackground — observe works with the request ctx and picks a bounded fresh budget for one piece of work beside it (the epoch bump)
				errc <- err
				return
			}
			sched.Feed(req.GetRegion())
		}
	}()
	for { // OK: streamloop — Ops() outlives the request, but the errc case is a channel the handler made and its Recv goroutine sends on, and Send errors are checked
		select {
		case err := <-errc:
			if errors.Is(err, io.EOF) {
				return nil
			}
			return err
		case op := <-sched.Ops():
			if err := stream.Send(op); err != nil {
				return err
			}
		}
	}
}

// observe records r and bumps the cluster's region epoch. The bump is one
// small write that must land once the region row did, so it gets a budget of
// its own rather than whatever is left of the caller's.
func (s *Server) observe(ctx context.Context, r *storagepb.Region) error {
	if err := s.regions.Observe(ctx, r); err != nil {
		return err
	}
	bctx, cancel := context.WithTimeout(context.Background(), time.Second)
	defer cancel()
	_, err := s.regions.store.Put(bctx, []byte("region-epoch"), []byte(strconv.FormatUint(r.GetVersion(), 10)))
	return err
}

// Close stops the store monitors and checkpoints the event log.
func (s *Server) Close() error {
	s.mu.Lock()
	ids := make([]uint64, 0, len(s.monitors))
	for id := range s.monitors {
		ids = append(ids, id)
	}
	s.mu.Unlock()
	for _, id := range ids {
		s.forgetStore(id)
	}
	s.raft.Stop()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second) // OK: ctxbackground — Close is not a request scope
	defer cancel()
	return s.events.Flush(ctx)
}

// grpcCode maps the errors of the meta service to gRPC codes.
func grpcCode(err error) codes.Code {
	switch {
	case errors.Is(err, context.DeadlineExceeded):
		return codes.DeadlineExceeded
	case errors.Is(err, context.Canceled):
		return codes.Canceled
	case errors.Is(err, ErrNoRegion), errors.Is(err, kv.ErrNotFound):
		return codes.NotFound
	case errors.Is(err, errStopped):
		return codes.Unavailable
	}
	return codes.Unknown
}

// LeaderOnly rejects writes on followers and records per-method latency.
func LeaderOnly(m *Members, latency obs.Histogram) grpc.UnaryServerInterceptor {
	return func(ctx context.Context, req any, info *grpc.UnaryServerInfo, handler grpc.UnaryHandler) (any, error) {
		if !m.IsLeader() && isWrite(info.FullMethod) {
			return nil, status.Errorf(codes.FailedPrecondition, "not leader; leader is %q", m.Leader(ctx).Name)
		}
		start := time.Now()
		resp, err := handler(obs.WithTraceID(ctx, newTraceID()), req)
		latency.Record(context.Background(), time.Since(start).Seconds(), obs.Attr{Key: "method", Value: info.FullMethod}) // OK?: ctxbackground — metric record through an OTel-shaped Histogram interface (deadlinelint, precision issue: an OK? — the instrument is an interface of the module whose value comes from out of sight, a parameter or another package's constructor or exported variable, so what its Record/Add does with a ctx is not known; OpenTelemetry's own instruments are known by type)
		return resp, err
	}
}

func isWrite(method string) bool {
	return strings.HasSuffix(method, "/Propose") || strings.HasSuffix(method, "/AllocID")
}

func newTraceID() string {
	var b [8]byte
	_, _ = rand.Read(b[:])
	return hex.EncodeToString(b[:])
}
