package coord

import (
	"context"
	"errors"
	"fmt"
	"sync/atomic"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	"example.test/vectordb/gen/vdbpb"
	"example.test/vectordb/internal/conc"
	"example.test/vectordb/internal/grpcx"
	"example.test/vectordb/internal/lifecycle"
	"example.test/vectordb/internal/log"
	"example.test/vectordb/internal/metrics"
	"example.test/vectordb/internal/storage"
)

// DataCoord owns segments: flush, compaction and garbage collection.
type DataCoord struct {
	vdbpb.UnimplementedDataCoordServer
	*lifecycle.Base

	segs      *segmentMeta
	meta      *metaTable
	cm        *storage.ChunkManager
	sched     *conc.Scheduler
	rootc     vdbpb.RootCoordClient
	nodes     *grpcx.ConnCache
	nodeAddrs func() []string
	compactor *compactor

	vchannels     []string
	channelCtx    map[string]context.Context
	channelCancel map[string]context.CancelFunc

	gcInterval      time.Duration
	compactInterval time.Duration

	ctx    context.Context
	cancel context.CancelFunc
}

// NewDataCoord returns a data coordinator. rootConn reaches the root
// coordinator; nodeAddrs lists the data nodes.
func NewDataCoord(kv *storage.MetaKV, cm *storage.ChunkManager, rootConn grpc.ClientConnInterface, nodes *grpcx.ConnCache, nodeAddrs func() []string, vchannels []string) *DataCoord {
	s := &DataCoord{
		Base:            lifecycle.NewBase("datacoord"),
		segs:            newSegmentMeta(kv),
		meta:            newMetaTable(kv),
		cm:              cm,
		sched:           conc.NewScheduler(8),
		rootc:           vdbpb.NewRootCoordClient(rootConn),
		nodes:           nodes,
		nodeAddrs:       nodeAddrs,
		vchannels:       vchannels,
		channelCtx:      map[string]context.Context{},
		channelCancel:   map[string]context.CancelFunc{},
		gcInterval:      10 * time.Minute,
		compactInterval: time.Minute,
	}
	s.compactor = &compactor{nodes: nodes, segs: s.segs, addrs: nodeAddrs}
	return s
}

// Start watches the channels and starts the background loops.
func (s *DataCoord) Start() error {
	s.ctx, s.cancel = context.WithCancel(context.Background()) // OK: ctxbackground — Start: the component's lifetime
	for _, ch := range s.vchannels {
		cctx, cancel := context.WithCancel(s.ctx)
		s.channelCtx[ch] = cctx
		s.channelCancel[ch] = cancel
	}
	go s.gcLoop()
	go s.compactionLoop()
	s.SetState(lifecycle.Healthy)
	return nil
}

// Stop stops the loops and the scheduler.
func (s *DataCoord) Stop() error {
	s.SetState(lifecycle.Stopping)
	for _, cancel := range s.channelCancel {
		cancel()
	}
	s.cancel()
	s.sched.Stop()
	s.SetState(lifecycle.Stopped)
	return nil
}

func (s *DataCoord) Flush(ctx context.Context, req *vdbpb.FlushRequest) (*vdbpb.FlushResponse, error) {
	chCtx, ok := s.channelCtx[req.GetVchannel()]
	if !ok {
		return nil, status.Errorf(codes.NotFound, "channel %s is not watched", req.GetVchannel())
	}
	sealed, err := s.segs.SealSegments(chCtx, req.GetCollectionId(), req.GetVchannel()) // BUG: ctxflow — the channel's lifetime ctx, read from a map filled at start-up, for the request's kv writes
	if err != nil {
		return nil, grpcx.Status(err)
	}
	for _, id := range sealed {
		t := &flushTask{id: id, collID: req.GetCollectionId(), vchannel: req.GetVchannel(), dc: s}
		if err := s.sched.Enqueue(t); err != nil { // OK: ctxbackground — the flush task runs on the scheduler's pool, with a budget of its own, after the request
			return nil, status.Error(codes.Unavailable, err.Error()) // OK: statusmask — Enqueue is not given the request's ctx
		}
	}
	return &vdbpb.FlushResponse{Status: &vdbpb.Status{}, SegmentIds: sealed}, nil
}

func (s *DataCoord) GetSegmentInfo(ctx context.Context, req *vdbpb.GetSegmentInfoRequest) (*vdbpb.GetSegmentInfoResponse, error) {
	resp := &vdbpb.GetSegmentInfoResponse{Status: &vdbpb.Status{}}
	for _, id := range req.GetSegmentIds() {
		info, err := s.segs.Get(ctx, id)
		if err != nil {
			return nil, status.Errorf(codes.NotFound, "get segment info: %v", err) // OK: statusmask — Get never refers to its ctx (answers from memory)
		}
		resp.Infos = append(resp.Infos, info)
	}
	return resp, nil
}

func (s *DataCoord) ReportSegments(ctx context.Context, req *vdbpb.ReportSegmentsRequest) (*vdbpb.Status, error) {
	for _, seg := range req.GetSegments() {
		if err := s.segs.Persist(ctx, seg); err != nil {
			if errors.Is(err, context.DeadlineExceeded) || errors.Is(err, context.Canceled) {
				return nil, status.FromContextError(err).Err()
			}
			return nil, status.Errorf(codes.Internal, "persist segment %d: %v", seg.GetId(), err) // OK: statusmask — errors.Is on the context errors tells them apart
		}
	}
	cid, err := s.meta.ClusterID(context.Background()) // OK: ctxbackground — first use of the cluster id the meta table keeps
	if err != nil {
		return nil, grpcx.Status(err)
	}
	log.Ctx(ctx).Debug("segments reported", log.Int64("node", req.GetNodeId()), log.String("cluster", cid))
	return &vdbpb.Status{}, nil
}

func (s *DataCoord) ManualCompaction(ctx context.Context, req *vdbpb.CompactionRequest) (*vdbpb.CompactionResponse, error) {
	plan, err := s.compactor.plan(req.GetCollectionId())
	if err != nil {
		return nil, grpcx.Status(err)
	}
	// TODO: track the plan so that it can be cancelled.
	go s.compactor.execute(context.WithoutCancel(ctx), plan)
	// ^BUG: detach ALSO: missingdeadline — the compaction RPC runs with no bound and no reason (a TODO is none)
	return &vdbpb.CompactionResponse{Status: &vdbpb.Status{}, PlanId: plan.GetPlanId()}, nil
}

// gcLoop removes the segment files of dropped collections.
func (s *DataCoord) gcLoop() {
	t := time.NewTicker(s.gcInterval)
	defer t.Stop()
	for {
		select {
		case <-s.ctx.Done():
			return
		case <-t.C:
		}
		resp, err := s.rootc.ShowCollections(context.Background(), &vdbpb.ShowCollectionsRequest{}) // BUG: missingdeadline — a GC turn waits on the root coordinator with no deadline
		if err != nil {
			log.L().Warn("gc: list collections", log.Err(err))
			continue
		}
		live := map[int64]bool{}
		for _, id := range resp.GetIds() {
			live[id] = true
		}
		s.recycle(live)
	}
}

func (s *DataCoord) recycle(live map[int64]bool) {
	ctx, cancel := context.WithTimeout(s.ctx, time.Minute)
	defer cancel()
	s.segs.mu.RLock()
	var dropped []int64
	for _, seg := range s.segs.segs {
		if !live[seg.GetCollectionId()] {
			dropped = append(dropped, seg.GetCollectionId())
		}
	}
	s.segs.mu.RUnlock()
	for _, coll := range dropped {
		paths, err := s.segs.dropCollection(ctx, coll)
		if err != nil {
			log.L().Warn("gc: drop segments", log.Int64("collection", coll), log.Err(err))
		}
		var freed int64
		for _, p := range paths {
			if n, err := s.cm.Size(p); err == nil { // OK: ctxless — the GC worker is not a request scope
				freed += n
			}
			_ = s.cm.Remove(ctx, p)
		}
		log.L().Info("gc: collection recycled", log.Int64("collection", coll), log.Int64("bytes", freed))
	}
}

// compactionLoop asks data nodes to compact small segments.
func (s *DataCoord) compactionLoop() {
	t := time.NewTicker(s.compactInterval)
	defer t.Stop()
	for {
		select {
		case <-s.ctx.Done():
			return
		case <-t.C:
		}
		ctx, cancel := context.WithTimeout(context.Background(), s.compactInterval) // OK: ctxbackground — background worker, each turn bounded by the next tick
		for _, coll := range s.collectionsToCompact() {
			if plan, err := s.compactor.plan(coll); err == nil {
				s.compactor.execute(ctx, plan) // OK: missingdeadline — the turn's ctx has a deadline
			}
		}
		cancel()
	}
}

func (s *DataCoord) collectionsToCompact() []int64 {
	s.segs.mu.RLock()
	defer s.segs.mu.RUnlock()
	small := map[int64]int{}
	for _, seg := range s.segs.segs {
		if seg.GetState() == "Flushed" && seg.GetNumRows() < 1000 {
			small[seg.GetCollectionId()]++
		}
	}
	var out []int64
	for c, n := range small {
		if n > 4 {
			out = append(out, c)
		}
	}
	return out
}

// flushTask asks a data node to flush sealed segments; it runs after the
// Flush RPC returned.
type flushTask struct {
	id       int64
	collID   int64
	vchannel string
	dc       *DataCoord
}

func (t *flushTask) ID() int64              { return t.id }
func (t *flushTask) Name() string           { return "flush" }
func (t *flushTask) Timeout() time.Duration { return 2 * time.Minute }

func (t *flushTask) Execute(ctx context.Context) error {
	addrs := t.dc.nodeAddrs()
	if len(addrs) == 0 {
		return errors.New("no data node")
	}
	addr := addrs[int(t.id)%len(addrs)]
	return t.dc.nodes.WithClient(ctx, addr, func(cc *grpc.ClientConn) error {
		_, err := vdbpb.NewDataNodeClient(cc).FlushSegments(ctx, &vdbpb.FlushSegmentsRequest{CollectionId: t.collID, SegmentIds: []int64{t.id}, Vchannel: t.vchannel})
		return err
	})
}

// compactor plans compactions and hands them to data nodes.
type compactor struct {
	nodes    *grpcx.ConnCache
	segs     *segmentMeta
	addrs    func() []string
	nextPlan atomic.Int64
}

func (c *compactor) plan(collID int64) (*vdbpb.CompactionPlan, error) {
	var ids []int64
	for _, seg := range c.segs.List(collID) {
		if seg.GetState() == "Flushed" {
			ids = append(ids, seg.GetId())
		}
	}
	if len(ids) < 2 {
		return nil, fmt.Errorf("collection %d: nothing to compact: %w", collID, grpcx.ErrSegmentNotFound)
	}
	return &vdbpb.CompactionPlan{PlanId: c.nextPlan.Add(1), CollectionId: collID, SegmentIds: ids, TimeoutSeconds: 600}, nil
}

func (c *compactor) execute(ctx context.Context, plan *vdbpb.CompactionPlan) {
	start := time.Now()
	addrs := c.addrs()
	if len(addrs) == 0 {
		return
	}
	addr := addrs[int(plan.GetPlanId())%len(addrs)]
	err := c.nodes.WithClient(ctx, addr, func(cc *grpc.ClientConn) error {
		_, err := vdbpb.NewDataNodeClient(cc).Compaction(ctx, plan)
		return err
	})
	metrics.CompactionDuration.Record(ctx, float64(time.Since(start).Milliseconds()))
	if err != nil {
		log.Ctx(ctx).Warn("compaction failed", log.Int64("plan", plan.GetPlanId()), log.Err(err))
	}
}
