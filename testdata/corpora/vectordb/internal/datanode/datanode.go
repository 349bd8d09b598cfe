// Package datanode consumes the WAL, buffers rows into segments and flushes
// them to object storage; it also runs compactions planned by the data
// coordinator.
package datanode

import (
	"context"
	"encoding/binary"
	"fmt"
	"sync"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	"example.test/vectordb/gen/vdbpb"
	"example.test/vectordb/internal/grpcx"
	"example.test/vectordb/internal/lifecycle"
	"example.test/vectordb/internal/log"
	"example.test/vectordb/internal/storage"
)

// DataNode serves the DataNode service.
type DataNode struct {
	vdbpb.UnimplementedDataNodeServer
	*lifecycle.Base

	cm    *storage.ChunkManager
	sync  *syncManager
	alloc *allocator
	dc    vdbpb.DataCoordClient
	walc  vdbpb.StreamingNodeClient
	vchs  []string

	mu          sync.Mutex
	compactions map[int64]context.CancelFunc
	buildInfo   string

	ctx    context.Context
	cancel context.CancelFunc
	wg     sync.WaitGroup
}

// New returns a data node.
func New(cm *storage.ChunkManager, coordConn, walConn grpc.ClientConnInterface, vchannels []string) *DataNode {
	n := &DataNode{
		Base:        lifecycle.NewBase("datanode"),
		cm:          cm,
		sync:        newSyncManager(cm, 4),
		dc:          vdbpb.NewDataCoordClient(coordConn),
		walc:        vdbpb.NewStreamingNodeClient(walConn),
		vchs:        vchannels,
		compactions: map[int64]context.CancelFunc{},
	}
	n.ctx, n.cancel = context.WithCancel(context.Background()) // OK: ctxbackground — constructor: the node's lifetime
	n.alloc = newAllocator(n.ctx, vdbpb.NewRootCoordClient(coordConn))
	return n
}

func (n *DataNode) Start() error {
	go n.alloc.refillLoop()
	for _, ch := range n.vchs {
		n.wg.Add(1)
		go n.consume(ch)
	}
	n.SetState(lifecycle.Healthy)
	return nil
}

func (n *DataNode) Stop() error {
	n.SetState(lifecycle.Stopping)
	n.cancel()
	n.wg.Wait()
	n.mu.Lock()
	for _, c := range n.compactions {
		c()
	}
	n.mu.Unlock()
	n.SetState(lifecycle.Stopped)
	return nil
}

// consume follows a vchannel of the WAL and buffers its rows.
func (n *DataNode) consume(vchannel string) {
	defer n.wg.Done()
	for n.ctx.Err() == nil {
		stream, err := n.walc.Consume(n.ctx, &vdbpb.ConsumeRequest{Vchannel: vchannel}) // OK: missingdeadline — a server-streaming follow, not a unary call
		if err != nil {
			log.L().Warn("consume", log.String("vchannel", vchannel), log.Err(err))
			time.Sleep(time.Second) // OK: ctxless — a background loop, not a request scope
			continue
		}
		for {
			msg, err := stream.Recv()
			if err != nil {
				break
			}
			payload := msg.GetMessage().GetPayload()
			if len(payload) < 8 {
				continue
			}
			pk := int64(binary.LittleEndian.Uint64(payload))
			segID := n.alloc.segmentFor(vchannel, pk)
			if n.sync.Buffer(0, segID, payload) > 16<<20 {
				if err := n.sync.sync(n.ctx, segID); err != nil { // OK: ctxflow — the node's own consumer loop, not a request scope
					log.L().Warn("auto flush", log.Int64("segment", segID), log.Err(err))
				}
			}
		}
	}
}

func (n *DataNode) FlushSegments(ctx context.Context, req *vdbpb.FlushSegmentsRequest) (*vdbpb.Status, error) {
	var infos []*vdbpb.SegmentInfo
	for _, id := range req.GetSegmentIds() {
		if err := n.sync.SyncNow(id); err != nil { // BUG: ctxbackground — SyncNow writes the segment on context.Background() while the handler waits for it
			return nil, grpcx.Status(err)
		}
		infos = append(infos, &vdbpb.SegmentInfo{Id: id, CollectionId: req.GetCollectionId(), Vchannel: req.GetVchannel(), State: "Flushed"})
	}
	n.sync.SyncStatsAsync(ctx, req.GetCollectionId()) // OK: ctxbackground — stats are written on the pool, after the request, with a documented detached ctx
	//deadlinelint:detach the segments are already in object storage: the data coordinator must learn of them even if our caller gave up
	rctx := context.WithoutCancel(ctx) // OK: detach — the directive above gives the reason
	if _, err := n.dc.ReportSegments(rctx, &vdbpb.ReportSegmentsRequest{Segments: infos}); err != nil {
		return nil, grpcx.Status(err)
	}
	return &vdbpb.Status{}, nil
}

func (n *DataNode) Compaction(ctx context.Context, plan *vdbpb.CompactionPlan) (*vdbpb.Status, error) {
	n.mu.Lock()
	defer n.mu.Unlock()
	if _, ok := n.compactions[plan.GetPlanId()]; ok {
		return nil, status.Errorf(codes.AlreadyExists, "plan %d is running", plan.GetPlanId())
	}
	// Compaction plans are owned by the data coordinator, which tracks them by
	// plan id and times them out itself; this RPC only hands the plan over.
	cctx, cancel := context.WithCancel(context.WithoutCancel(ctx)) // OK: detach — the comment above gives the reason, and runCompaction bounds it by the plan's timeout
	n.compactions[plan.GetPlanId()] = cancel
	go n.runCompaction(cctx, plan)
	return &vdbpb.Status{}, nil
}

func (n *DataNode) runCompaction(ctx context.Context, plan *vdbpb.CompactionPlan) {
	defer func() {
		n.mu.Lock()
		if c, ok := n.compactions[plan.GetPlanId()]; ok {
			c()
			delete(n.compactions, plan.GetPlanId())
		}
		n.mu.Unlock()
	}()
	ctx, cancel := context.WithTimeout(ctx, time.Duration(plan.GetTimeoutSeconds())*time.Second)
	defer cancel()
	merged := map[string][]byte{}
	var all []byte
	for _, id := range plan.GetSegmentIds() {
		data, err := n.cm.Read(ctx, fmt.Sprintf("insert_log/%d/%d", plan.GetCollectionId(), id))
		if err != nil {
			log.Ctx(ctx).Warn("compaction read", log.Int64("segment", id), log.Err(err))
			return
		}
		all = append(all, data...)
	}
	merged[fmt.Sprintf("insert_log/%d/compacted-%d", plan.GetCollectionId(), plan.GetPlanId())] = all
	if err := n.cm.MultiWrite(ctx, merged); err != nil {
		log.Ctx(ctx).Warn("compaction write", log.Err(err))
	}
}

func (n *DataNode) GetMetrics(ctx context.Context, req *vdbpb.GetMetricsRequest) (*vdbpb.GetMetricsResponse, error) {
	n.mu.Lock()
	if n.buildInfo == "" {
		raw, err := n.cm.Read(context.Background(), "meta/build-info.json") // OK: ctxbackground — the handler's first-use branch on a field it then sets
		n.buildInfo = buildInfoOrDefault(raw, err)
	}
	info := n.buildInfo
	running := len(n.compactions)
	n.mu.Unlock()
	return &vdbpb.GetMetricsResponse{Status: &vdbpb.Status{}, Json: fmt.Sprintf(`{"build":%s,"compactions":%d}`, info, running)}, nil
}

func buildInfoOrDefault(raw []byte, err error) string {
	if err != nil || len(raw) == 0 {
		return `{"version":"unknown"}`
	}
	return string(raw)
}
