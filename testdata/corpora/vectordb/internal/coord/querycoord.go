package coord

import (
	"context"
	"strings"
	"sync"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	"example.test/vectordb/gen/vdbpb"
	"example.test/vectordb/internal/grpcx"
	"example.test/vectordb/internal/lifecycle"
	"example.test/vectordb/internal/log"
)

// QueryCoord decides which query node serves which shard.
type QueryCoord struct {
	vdbpb.UnimplementedQueryCoordServer
	*lifecycle.Base

	rootc     vdbpb.RootCoordClient
	datac     vdbpb.DataCoordClient
	nodes     *grpcx.ConnCache
	nodeAddrs func() []string

	mu      sync.Mutex
	loading map[int64]context.CancelFunc
	leaders map[int64][]*vdbpb.ShardLeader

	ctx    context.Context
	cancel context.CancelFunc
}

// NewQueryCoord returns a query coordinator.
func NewQueryCoord(coordConn grpc.ClientConnInterface, nodes *grpcx.ConnCache, nodeAddrs func() []string) *QueryCoord {
	s := &QueryCoord{
		Base:      lifecycle.NewBase("querycoord"),
		rootc:     vdbpb.NewRootCoordClient(coordConn),
		datac:     vdbpb.NewDataCoordClient(coordConn),
		nodes:     nodes,
		nodeAddrs: nodeAddrs,
		loading:   map[int64]context.CancelFunc{},
		leaders:   map[int64][]*vdbpb.ShardLeader{},
	}
	s.ctx, s.cancel = context.WithCancel(lifecycle.Context()) // OK: ctxflow — constructor, not a request scope
	return s
}

func (s *QueryCoord) Start() error { s.SetState(lifecycle.Healthy); return nil }

func (s *QueryCoord) Stop() error {
	s.mu.Lock()
	for id, cancel := range s.loading {
		cancel()
		delete(s.loading, id)
	}
	s.mu.Unlock()
	s.cancel()
	s.SetState(lifecycle.Stopped)
	return nil
}

func (s *QueryCoord) LoadCollection(ctx context.Context, req *vdbpb.LoadCollectionRequest) (*vdbpb.Status, error) {
	id := req.GetCollectionId()
	lctx, cancel := context.WithCancel(s.ctx)
	s.mu.Lock()
	if old, ok := s.loading[id]; ok {
		old()
	}
	s.loading[id] = cancel
	s.mu.Unlock()
	go s.loadCollection(lctx, id) // OK: ctxflow — a child of the coordinator's ctx whose cancel is kept by collection id; ReleaseCollection ends it
	return &vdbpb.Status{}, nil
}

func (s *QueryCoord) loadCollection(ctx context.Context, collID int64) {
	addrs := s.nodeAddrs()
	if len(addrs) == 0 {
		log.Ctx(ctx).Warn("no query node to load on", log.Int64("collection", collID))
		return
	}
	ictx, cancel := context.WithTimeout(ctx, 10*time.Second)
	info, err := s.datac.GetSegmentInfo(ictx, &vdbpb.GetSegmentInfoRequest{})
	cancel()
	if err != nil {
		log.Ctx(ctx).Warn("load: segment info", log.Err(err))
		return
	}
	var leaders []*vdbpb.ShardLeader
	for i, seg := range info.GetInfos() {
		if seg.GetCollectionId() != collID {
			continue
		}
		addr := addrs[i%len(addrs)]
		err := s.nodes.WithClient(ctx, addr, func(cc *grpc.ClientConn) error {
			lctx, cancel := context.WithTimeout(ctx, time.Minute)
			defer cancel()
			_, err := vdbpb.NewQueryNodeClient(cc).LoadSegments(lctx, &vdbpb.LoadSegmentsRequest{CollectionId: collID, SegmentIds: []int64{seg.GetId()}})
			return err
		})
		if err != nil {
			log.Ctx(ctx).Warn("load segment", log.Int64("segment", seg.GetId()), log.Err(err))
			continue
		}
		leaders = append(leaders, &vdbpb.ShardLeader{Vchannel: seg.GetVchannel(), Addr: addr})
	}
	s.mu.Lock()
	s.leaders[collID] = leaders
	s.mu.Unlock()
}

func (s *QueryCoord) ReleaseCollection(ctx context.Context, req *vdbpb.ReleaseCollectionRequest) (*vdbpb.Status, error) {
	id := req.GetCollectionId()
	s.mu.Lock()
	cancel := s.loading[id]
	delete(s.loading, id)
	delete(s.leaders, id)
	s.mu.Unlock()
	if cancel != nil {
		cancel()
	}
	for _, addr := range s.nodeAddrs() {
		err := s.nodes.WithClient(ctx, addr, func(cc *grpc.ClientConn) error {
			_, err := vdbpb.NewQueryNodeClient(cc).ReleaseSegments(ctx, &vdbpb.ReleaseSegmentsRequest{CollectionId: id})
			return err
		})
		if err != nil {
			if strings.Contains(err.Error(), "deadline") || strings.Contains(err.Error(), "context canceled") {
				return nil, status.Error(codes.DeadlineExceeded, err.Error())
			}
			return nil, status.Errorf(codes.Unavailable, "release on %s: %v", addr, err) // OK: statusmask — the text test above picks out deadline and cancellation errors
		}
	}
	return &vdbpb.Status{}, nil
}

func (s *QueryCoord) GetShardLeaders(ctx context.Context, req *vdbpb.GetShardLeadersRequest) (*vdbpb.GetShardLeadersResponse, error) {
	desc, err := s.rootc.DescribeCollection(s.ctx, &vdbpb.DescribeCollectionRequest{Id: req.GetCollectionId()}) // BUG: ctxflow ALSO: missingdeadline — the coordinator's lifetime ctx for the request's RPC
	if err != nil {
		return nil, grpcx.Status(err)
	}
	s.mu.Lock()
	leaders := s.leaders[desc.GetInfo().GetId()]
	s.mu.Unlock()
	if len(leaders) == 0 {
		return nil, status.Errorf(codes.FailedPrecondition, "collection %d is not loaded", req.GetCollectionId())
	}
	return &vdbpb.GetShardLeadersResponse{Status: &vdbpb.Status{}, Leaders: leaders}, nil
}
