// Package querynode serves searches and queries over the segments it has
// loaded, with a segment loader, worker pools and per-channel flowgraphs.
package querynode

import (
	"context"
	"fmt"
	"sync"
	"time"

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

// QueryNode serves the QueryNode service.
type QueryNode struct {
	vdbpb.UnimplementedQueryNodeServer
	*lifecycle.Base

	loader   *segmentLoader
	cm       *storage.ChunkManager
	execPool sync.Pool

	mu         sync.Mutex
	flowgraphs map[string]*flowgraph

	ctx    context.Context
	cancel context.CancelFunc
}

// New returns a query node.
func New(cm *storage.ChunkManager) *QueryNode {
	n := &QueryNode{
		Base:       lifecycle.NewBase("querynode"),
		loader:     newSegmentLoader(cm, 8),
		cm:         cm,
		flowgraphs: map[string]*flowgraph{},
	}
	n.execPool.New = func() any { return &executor{loader: n.loader} }
	return n
}

func (n *QueryNode) Start() error {
	n.ctx, n.cancel = context.WithCancel(context.Background()) // OK: ctxbackground — Start: the node's lifetime
	n.SetState(lifecycle.Healthy)
	return nil
}

func (n *QueryNode) Stop() error {
	n.SetState(lifecycle.Stopping)
	n.mu.Lock()
	for ch, fg := range n.flowgraphs {
		fg.close()
		delete(n.flowgraphs, ch)
	}
	n.mu.Unlock()
	n.cancel()
	n.SetState(lifecycle.Stopped)
	return nil
}

func (n *QueryNode) LoadSegments(ctx context.Context, req *vdbpb.LoadSegmentsRequest) (*vdbpb.Status, error) {
	if err := n.loader.Load(n.ctx, req.GetCollectionId(), req.GetSegmentIds()); err != nil { // BUG: ctxflow — the node's lifetime ctx for the request's segment reads
		return nil, status.Errorf(codes.Internal, "load segments: %v", err) // OK: statusmask — the load was given the node's ctx, not the request's
	}
	metrics.LoadedSegments.Add(ctx, int64(len(req.GetSegmentIds())))
	for _, id := range req.GetSegmentIds() {
		n.loader.pool.Submit(func() error {
			return n.loader.Warm(context.Background(), id) // OK?: ctxbackground — a root made in a closure of the handler, but run by the loader's worker pool after the request (the issue stops the chain at a pool; the catalogue's closure rule says the literal is a request scope)
		})
	}
	if stale := n.loader.StaleIndexes(req.GetSegmentIds()); len(stale) > 0 {
		n.scheduleReload(ctx, req.GetCollectionId(), stale)
	}
	return &vdbpb.Status{}, nil
}

func (n *QueryNode) scheduleReload(ctx context.Context, collID int64, ids []int64) {
	// TODO: bound the reload
	rctx := context.WithoutCancel(ctx)
	// ^BUG: detach — the reload's reads have neither a bound nor a reason (TODO is none)
	go func() {
		if err := n.loader.Load(rctx, collID, ids); err != nil {
			log.Ctx(rctx).Warn("reload stale indexes", log.Err(err))
		}
	}()
}

func (n *QueryNode) ReleaseSegments(ctx context.Context, req *vdbpb.ReleaseSegmentsRequest) (*vdbpb.Status, error) {
	n.loader.Release(req.GetSegmentIds())
	go n.purgeCache(context.WithoutCancel(ctx), req.GetCollectionId(), req.GetSegmentIds()) // OK: detach — purgeCache bounds the work with its own timeout
	log.Ctx(ctx).Info("segments released", log.Int("count", len(req.GetSegmentIds())))      // OK: ctxless — Logger.InfoContext only reads the trace id from its ctx
	return &vdbpb.Status{}, nil
}

func (n *QueryNode) purgeCache(ctx context.Context, collID int64, ids []int64) {
	ctx, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	for _, id := range ids {
		if err := n.cm.Remove(ctx, fmt.Sprintf("cache/%d/%d", collID, id)); err != nil {
			log.Ctx(ctx).Warn("purge segment cache", log.Int64("segment", id), log.Err(err))
		}
	}
}

func (n *QueryNode) WatchDmChannels(ctx context.Context, req *vdbpb.WatchDmChannelsRequest) (*vdbpb.Status, error) {
	n.mu.Lock()
	if _, ok := n.flowgraphs[req.GetVchannel()]; !ok {
		fctx, cancel := context.WithCancel(context.Background()) // OK: ctxbackground — the flowgraph keeps the cancel in a field; it lives until Stop
		fg := &flowgraph{vchannel: req.GetVchannel(), cancel: cancel, loader: n.loader, collID: req.GetCollectionId(), done: make(chan struct{})}
		n.flowgraphs[req.GetVchannel()] = fg
		go fg.run(fctx)
	}
	n.mu.Unlock()
	n.watchChannelExit(context.Background(), req.GetVchannel()) // OK: ctxbackground — the helper uses the root only in the goroutine it starts (an exit monitor)

	var missing []int64
	for _, id := range req.GetSegmentIds() {
		if s, _ := n.loader.get(ctx, req.GetCollectionId(), id, false); s == nil { // OK: ctxbackground — with load=false get reaches no load: its root is only on the branch of the bool parameter
			missing = append(missing, id)
		}
	}
	if len(missing) > 0 {
		log.Ctx(ctx).Debug("segments not loaded yet", log.Int("count", len(missing)))
	}

	errc := make(chan error, 1)
	go n.warmup(ctx, req.GetSegmentIds(), errc)
	select {
	case err := <-errc:
		if err != nil {
			return nil, grpcx.Status(err)
		}
	case <-ctx.Done():
		return nil, status.FromContextError(ctx.Err()).Err()
	}
	return &vdbpb.Status{}, nil
}

// watchChannelExit removes the channel's checkpoint once its flowgraph ends.
func (n *QueryNode) watchChannelExit(ctx context.Context, vchannel string) {
	n.mu.Lock()
	fg := n.flowgraphs[vchannel]
	n.mu.Unlock()
	if fg == nil {
		return
	}
	go func() {
		<-fg.done
		if err := n.cm.Remove(ctx, "checkpoint/"+vchannel); err != nil {
			log.Ctx(ctx).Warn("remove checkpoint", log.String("vchannel", vchannel), log.Err(err))
		}
	}()
}

// warmup waits until each segment is loaded, then reads its index.
func (n *QueryNode) warmup(ctx context.Context, ids []int64, errc chan<- error) {
	for _, id := range ids {
		for !n.loader.IsLoaded(id) {
			time.Sleep(20 * time.Millisecond) // BUG: ctxless — a poll in the request's goroutine that never checks the ctx
		}
		if err := n.loader.Warm(ctx, id); err != nil {
			errc <- err
			return
		}
	}
	errc <- nil
}

func (n *QueryNode) Search(ctx context.Context, req *vdbpb.SearchRequest) (*vdbpb.SearchResponse, error) {
	start := time.Now()
	stop := context.AfterFunc(ctx, func() {
		n.cleanupSearch(context.Background(), req.GetReqId()) // OK: ctxbackground — runs only once the request's ctx is done
	})
	defer stop()
	conc.Inject("querynode/search/slow-warm", func() {
		_ = n.loader.Warm(context.Background(), 0) // OK: ctxbackground — a literal handed to a no-op fault-injection marker never runs
	})
	res, err := n.searchWithFallback(ctx, req) // BUG: ctxbackground — on a failure the fallback searches again on context.Background() and its answer is returned
	if err != nil {
		return nil, grpcx.Status(err)
	}
	metrics.SearchLatency.Record(n.ctx, float64(time.Since(start).Milliseconds())) // OK?: ctxflow — the node's ctx lends its values to a metric record only (the tool reports it: the instrument is an exported variable of the metrics package, out of sight)
	return res, nil
}

func (n *QueryNode) searchWithFallback(ctx context.Context, req *vdbpb.SearchRequest) (*vdbpb.SearchResponse, error) {
	res, err := n.searchSegments(ctx, req, req.GetSegmentIds())
	if err == nil {
		return res, nil
	}
	log.Ctx(ctx).Warn("search on requested segments failed, falling back to sealed ones", log.Err(err))
	return n.searchSegments(context.Background(), req, n.loader.Sealed(req.GetCollectionId()))
}

func (n *QueryNode) searchSegments(ctx context.Context, req *vdbpb.SearchRequest, ids []int64) (*vdbpb.SearchResponse, error) {
	rows, err := n.loader.scan(ctx, req.GetCollectionId(), ids, int64(req.GetTopk()))
	if err != nil {
		return nil, err
	}
	resp := &vdbpb.SearchResponse{Status: &vdbpb.Status{}}
	for i, r := range rows {
		resp.Hits = append(resp.Hits, &vdbpb.Hit{Pk: r.GetPk(), Score: 1 / float32(i+1)})
	}
	return resp, nil
}

// cleanupSearch removes the spill files of a search the caller abandoned.
func (n *QueryNode) cleanupSearch(ctx context.Context, reqID int64) {
	_ = n.cm.Remove(ctx, spillPath(reqID))
}

func spillPath(reqID int64) string { return fmt.Sprintf("tmp/search/%d", reqID) }

func (n *QueryNode) GetStatistics(ctx context.Context, req *vdbpb.GetStatisticsRequest) (*vdbpb.GetStatisticsResponse, error) {
	rows, mem, err := n.loader.CollectStats(context.Background(), req.GetSegmentIds()) // BUG: ctxbackground — the statistics reads run on a fresh root instead of the request's ctx
	if err != nil {
		return nil, status.Errorf(codes.Internal, "statistics: %v", err) // OK: statusmask — the call was made with a fresh context
	}
	return &vdbpb.GetStatisticsResponse{Status: &vdbpb.Status{}, RowCount: rows, MemSize: mem}, nil
}

func (n *QueryNode) QueryStream(req *vdbpb.QueryRequest, stream vdbpb.QueryNode_QueryStreamServer) error {
	ctx := stream.Context()
	ex := n.execPool.Get().(*executor)
	ex.SetContext(ctx)
	rows, err := ex.Run(req)            // OK: ctxbackground — the executor's only root is the nil fallback of the ctx SetContext gave it
	ex.SetContext(context.Background()) // OK: ctxbackground — the pooled executor's idle ctx, reset after the run before it goes back to the pool
	n.execPool.Put(ex)
	if err != nil {
		return grpcx.Status(err)
	}
	for i := 0; i < len(rows); i += 100 {
		end := min(i+100, len(rows))
		if err := stream.Send(&vdbpb.QueryResult{Rows: rows[i:end]}); err != nil {
			return err
		}
	}
	return nil
}

// executor runs one query at a time; executors are pooled.
type executor struct {
	ctx    context.Context
	loader *segmentLoader
}

// SetContext sets the ctx the next Run works with.
func (e *executor) SetContext(ctx context.Context) { e.ctx = ctx }

func (e *executor) context() context.Context {
	if e.ctx == nil {
		return context.Background() // OK: ctxbackground — a nil fallback for a ctx the executor is given by SetContext
	}
	return e.ctx
}

func (e *executor) Run(req *vdbpb.QueryRequest) ([]*vdbpb.Row, error) {
	ctx := e.context()
	ids := e.loader.Sealed(req.GetCollectionId())
	return e.loader.scan(ctx, req.GetCollectionId(), ids, req.GetLimit())
}

// flowgraph consumes a vchannel for the segments it serves.
type flowgraph struct {
	vchannel string
	collID   int64
	cancel   context.CancelFunc
	loader   *segmentLoader
	done     chan struct{}
}

func (f *flowgraph) run(ctx context.Context) {
	defer close(f.done)
	t := time.NewTicker(time.Second)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
			for _, id := range f.loader.Sealed(f.collID) {
				if _, err := f.loader.get(ctx, f.collID, id, true); err == nil {
					_ = f.loader.Warm(ctx, id)
				}
			}
		}
	}
}

func (f *flowgraph) close() { f.cancel() }
