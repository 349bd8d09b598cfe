// Package proxy is the front door of the cluster: it authenticates and
// rate-limits requests, resolves collections through its meta cache and
// routes writes to the WAL and searches to the query nodes' shard leaders.
package proxy

import (
	"bytes"
	"context"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"net/http"
	"sync"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	"example.test/vectordb/gen/vdbpb"
	"example.test/vectordb/internal/grpcx"
	"example.test/vectordb/internal/lifecycle"
	"example.test/vectordb/internal/log"
	"example.test/vectordb/internal/metrics"
	"example.test/vectordb/internal/wal"
)

const debugInserts = false

// Config of the proxy.
type Config struct {
	EmbedURL     string
	CDCEndpoint  string
	MetaCacheTTL time.Duration
	DumpURL      string
}

// Proxy serves the Proxy service.
type Proxy struct {
	vdbpb.UnimplementedProxyServer
	*lifecycle.Base

	cfg    Config
	rootc  vdbpb.RootCoordClient
	reg    vdbpb.RegistryClient
	wal    *wal.Client
	meta   *metaCache
	shards *shardManager
	conns  *grpcx.ConnCache
	creds  *credCache
	lim    *limiter
	cdc    *replicator
	quota  quotaChecker

	clusterID func() (string, error)

	ctx    context.Context
	cancel context.CancelFunc
	stop   chan struct{}
	wg     sync.WaitGroup
}

// New returns a proxy. qc is the module's bounded query-coordinator client.
func New(cfg Config, coordConn grpc.ClientConnInterface, qc vdbpb.QueryCoordClient, w *wal.Client, conns *grpcx.ConnCache) *Proxy {
	rootc := vdbpb.NewRootCoordClient(coordConn)
	p := &Proxy{
		Base:   lifecycle.NewBase("proxy"),
		cfg:    cfg,
		rootc:  rootc,
		reg:    vdbpb.NewRegistryClient(coordConn),
		wal:    w,
		meta:   newMetaCache(rootc, cfg.MetaCacheTTL),
		shards: &shardManager{qc: qc, conns: conns, leaders: map[int64][]*vdbpb.ShardLeader{}},
		conns:  conns,
		creds:  newCredCache(rootc, time.Minute),
		lim:    newLimiter(1000, 2000, 100*time.Millisecond),
		cdc:    &replicator{endpoint: cfg.CDCEndpoint, hc: &http.Client{}},
		stop:   make(chan struct{}),
		quota:  &memQuota{limit: 1 << 20, used: map[string]int{}},
	}
	p.clusterID = sync.OnceValues(func() (string, error) {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second) // OK: ctxbackground — a constructor's OnceValues, run once on first use
		defer cancel()
		resp, err := p.reg.GetClusterID(ctx, &vdbpb.GetClusterIDRequest{})
		return resp.GetClusterId(), err
	})
	return p
}

// ServerOptions are the interceptors the proxy is served with.
func (s *Proxy) ServerOptions() []grpc.ServerOption {
	return []grpc.ServerOption{
		grpc.ChainUnaryInterceptor(TraceInterceptor, ReadyInterceptor(s.Base), s.lim.Unary(), AuthInterceptor(s.creds)),
		grpc.ChainStreamInterceptor(StreamTraceInterceptor),
	}
}

func (s *Proxy) Start() error {
	s.ctx, s.cancel = context.WithCancel(context.Background()) // OK: ctxbackground — Start: the proxy's lifetime
	s.wg.Add(1)
	go func() { defer s.wg.Done(); s.shards.refreshLoop(s.stop, 30*time.Second) }()
	s.SetState(lifecycle.Healthy)
	return nil
}

func (s *Proxy) Stop() error {
	s.SetState(lifecycle.Stopping)
	close(s.stop)
	s.wg.Wait()
	s.cancel()
	s.wal.Close()
	s.SetState(lifecycle.Stopped)
	return nil
}

func (s *Proxy) CreateCollection(ctx context.Context, req *vdbpb.CreateCollectionRequest) (*vdbpb.Status, error) {
	st, err := s.rootc.CreateCollection(ctx, req)
	if err != nil {
		if se, ok := status.FromError(err); ok {
			return nil, se.Err()
		}
		return nil, status.Errorf(codes.Internal, "create collection: %v", err) // OK: statusmask — status.FromError of the error is checked first
	}
	s.meta.Invalidate(req.GetDb(), req.GetName())
	actx, cancel := context.WithTimeout(detachedForAudit(ctx), 2*time.Second) // OK: detach — a documented detach helper, and the audit is bounded by WithTimeout
	go func() {
		defer cancel()
		s.cdc.audit(actx, "create_collection", req.GetDb()+"."+req.GetName())
	}()
	return st, nil
}

// detachedForAudit returns a ctx for writing audit rows: it keeps the
// request's values (trace id, user) but not its cancellation, because the
// row must be written even when the client gave up.
func detachedForAudit(ctx context.Context) context.Context {
	return context.WithoutCancel(ctx) // OK: detach — the doc comment of a helper whose job is the detach
}

func (s *Proxy) DescribeCollection(ctx context.Context, req *vdbpb.DescribeCollectionRequest) (*vdbpb.DescribeCollectionResponse, error) {
	info, err := s.meta.GetCollectionInfo(ctx, req.GetDb(), req.GetName()) // BUG: ctxbackground — on a miss or an expired entry the meta cache fetches from rootcoord on context.Background() (singleflight, outside its lock)
	if err != nil {
		return nil, grpcx.Status(err)
	}
	return &vdbpb.DescribeCollectionResponse{Status: &vdbpb.Status{}, Info: info}, nil
}

func (s *Proxy) ShowCollections(ctx context.Context, req *vdbpb.ShowCollectionsRequest) (*vdbpb.ShowCollectionsResponse, error) {
	metrics.ProxyRequests.Add(s.ctx, 1, metrics.Attr{K: "method", V: "ShowCollections"}) // OK?: ctxflow — the server's ctx lends its values to a metric record only (the tool reports it: the instrument is an exported variable of the metrics package, a value another package may replace, out of sight)
	cid, _ := s.clusterID()                                                              // OK: ctxbackground — sync.OnceValues: the cluster id is fetched once and kept
	resp, err := s.rootc.ShowCollections(ctx, req)
	if err != nil {
		return nil, grpcx.Status(err)
	}
	log.Ctx(ctx).Debug("show collections", log.String("cluster", cid), log.Int("count", len(resp.GetNames())))
	return resp, nil
}

func (s *Proxy) Insert(ctx context.Context, req *vdbpb.InsertRequest) (*vdbpb.InsertResponse, error) {
	if len(req.GetRows()) == 0 {
		return nil, status.Error(codes.InvalidArgument, "no rows")
	}
	info, err := s.meta.GetCollectionInfo(ctx, req.GetDb(), req.GetCollection()) // OK: ctxbackground — same root as in DescribeCollection: one finding per root and package, at the first call in source order
	if err != nil {
		return nil, grpcx.Status(err)
	}
	if err := s.quota.Check(context.Background(), req.GetDb(), len(req.GetRows())); err != nil { // OK: ctxbackground — every implementation of quotaChecker in sight ignores its ctx
		return nil, status.Error(codes.ResourceExhausted, err.Error()) // OK: statusmask — the check was given a fresh context, and answers from memory
	}
	ids, err := s.rootc.AllocID(ctx, &vdbpb.AllocIDRequest{Count: uint32(len(req.GetRows()))})
	if err != nil {
		return nil, grpcx.Status(err)
	}
	if debugInserts {
		_ = s.dumpRows(context.Background(), req) // OK: ctxbackground — under a false constant: never runs
	}
	vch := info.GetVchannels()[0]
	msgs := make([]*vdbpb.WALMessage, 0, len(req.GetRows()))
	out := &vdbpb.InsertResponse{Status: &vdbpb.Status{}}
	for i, row := range req.GetRows() {
		row.Pk = ids.GetBegin() + int64(i)
		out.Ids = append(out.Ids, row.Pk)
		msgs = append(msgs, &vdbpb.WALMessage{Vchannel: vch, Payload: encodeRow(row)})
	}
	ts, err := s.wal.Append(ctx, vch, msgs) // OK: ctxbackground — the WAL balancer is discovered on a fresh ctx in a sync.Once, before first use
	if err != nil {
		return nil, grpcx.Status(err)
	}
	out.Ts = ts
	go s.cdc.replicate(context.WithoutCancel(ctx), vch, msgs)
	// ^BUG: detach — the replication POST has neither a bound nor a reason
	return out, nil
}

func (s *Proxy) Search(ctx context.Context, req *vdbpb.SearchRequest) (*vdbpb.SearchResponse, error) {
	start := time.Now()
	if req.GetText() != "" {
		body, _ := json.Marshal(map[string]string{"text": req.GetText()})
		resp, err := http.Post(s.cfg.EmbedURL, "application/json", bytes.NewReader(body)) // BUG: ctxless — the embedding call cannot carry the request's deadline (http.NewRequestWithContext exists)
		if err != nil {
			return nil, status.Errorf(codes.Unavailable, "embedding: %v", err) // OK: statusmask — http.Post is not given the request's ctx
		}
		vec, err := decodeEmbedding(resp.Body)
		resp.Body.Close()
		if err != nil {
			log.L().Warn("embedding: bad response", log.Err(err)) // OK: ctxless — WarnContext only attaches the trace id
			return nil, status.Error(codes.Internal, "embedding: bad response")
		}
		req.Vector = vec
	}
	info, err := s.meta.GetCollectionInfo(ctx, req.GetDb(), req.GetCollection()) // OK: ctxbackground — same meta-cache root, already reported at DescribeCollection
	if err != nil {
		return nil, status.Error(codes.NotFound, "collection not found")
	}
	leaders, err := s.shards.Leaders(ctx, info.GetId())
	if err != nil || len(leaders) == 0 {
		return nil, status.Error(codes.FailedPrecondition, "collection not loaded")
	}
	var hits []*vdbpb.Hit
	for _, l := range leaders {
		sreq := &vdbpb.SearchRequest{CollectionId: info.GetId(), Vector: req.GetVector(), Topk: req.GetTopk(), Vchannel: l.GetVchannel()}
		res, err := s.shards.Search(ctx, l, sreq) // OK: ctxbackground — the conn cache's root is only asked, after the RPC ran with ctx, whether to drop the connection
		if err != nil {
			if errors.Is(err, grpcx.ErrShardNotServing) {
				return nil, status.Errorf(codes.Unavailable, "shard %s: %v", l.GetVchannel(), err) // OK: statusmask — inside the branch where the module's sentinel holds
			}
			return nil, status.Error(codes.Internal, "search failed: "+err.Error()) // BUG: statusmask — the sentinel tells apart only its own branch; a deadline here becomes Internal
		}
		hits = append(hits, res.GetHits()...)
	}
	metrics.SearchLatency.Record(context.Background(), float64(time.Since(start).Milliseconds())) // OK: ctxbackground — a root used only for a metric record
	return &vdbpb.SearchResponse{Status: &vdbpb.Status{}, Hits: topK(hits, int(req.GetTopk()))}, nil
}

func (s *Proxy) QueryStream(req *vdbpb.QueryRequest, stream vdbpb.Proxy_QueryStreamServer) error {
	ctx := stream.Context()
	log.Info(context.TODO(), "query stream", log.String("collection", req.GetCollection())) // OK: ctxbackground — a root used only to log with
	info, err := s.meta.GetCollectionInfo(ctx, req.GetDb(), req.GetCollection())            // OK: ctxbackground — same meta-cache root, already reported at DescribeCollection
	if err != nil {
		return grpcx.Status(err)
	}
	leaders, err := s.shards.Leaders(ctx, info.GetId())
	if err != nil {
		return grpcx.Status(err)
	}
	// The follow to the query nodes must not inherit a short client timeout,
	// but it ends when the client goes away.
	qctx, cancel := context.WithCancel(context.Background()) // OK: ctxbackground — cancelled by a goroutine once the request's ctx is done: lives as long as the request
	defer cancel()
	go func() {
		select {
		case <-ctx.Done():
			cancel()
		case <-qctx.Done():
		}
	}()
	for _, l := range leaders {
		cc, err := s.conns.Get(l.GetAddr()) // OK: ctxbackground — the cache's root is given only to a dial; the connection is shared by later requests
		if err != nil {
			return grpcx.Status(err)
		}
		qreq := &vdbpb.QueryRequest{CollectionId: info.GetId(), Expr: req.GetExpr(), Limit: req.GetLimit(), Vchannel: l.GetVchannel()}
		qs, err := vdbpb.NewQueryNodeClient(cc).QueryStream(qctx, qreq)
		if err != nil {
			return grpcx.Status(err)
		}
		for {
			res, err := qs.Recv()
			if errors.Is(err, io.EOF) {
				break
			}
			if err != nil {
				return err
			}
			if err := stream.Send(res); err != nil {
				return err
			}
		}
	}
	return nil
}

func (s *Proxy) dumpRows(ctx context.Context, req *vdbpb.InsertRequest) error {
	body, _ := json.Marshal(req.GetRows())
	hreq, err := http.NewRequestWithContext(ctx, http.MethodPost, s.cfg.DumpURL, bytes.NewReader(body))
	if err != nil {
		return err
	}
	resp, err := http.DefaultClient.Do(hreq)
	if err != nil {
		return err
	}
	return resp.Body.Close()
}

func encodeRow(r *vdbpb.Row) []byte {
	buf := make([]byte, 8, 8+4*len(r.GetVector())+len(r.GetPayload()))
	binary.LittleEndian.PutUint64(buf, uint64(r.GetPk()))
	for _, f := range r.GetVector() {
		buf = binary.LittleEndian.AppendUint32(buf, math.Float32bits(f))
	}
	return append(buf, r.GetPayload()...)
}

func decodeEmbedding(r io.Reader) ([]float32, error) {
	var out struct {
		Embedding []float32 `json:"embedding"`
	}
	if err := json.NewDecoder(r).Decode(&out); err != nil {
		return nil, err
	}
	return out.Embedding, nil
}

func topK(hits []*vdbpb.Hit, k int) []*vdbpb.Hit {
	for i := 1; i < len(hits); i++ {
		for j := i; j > 0 && hits[j].GetScore() > hits[j-1].GetScore(); j-- {
			hits[j], hits[j-1] = hits[j-1], hits[j]
		}
	}
	if k > 0 && len(hits) > k {
		hits = hits[:k]
	}
	return hits
}

// quotaChecker decides whether a database may take more rows.
type quotaChecker interface {
	Check(ctx context.Context, db string, rows int) error
}

// memQuota counts rows per database in memory.
type memQuota struct {
	mu    sync.Mutex
	limit int
	used  map[string]int
}

func (q *memQuota) Check(_ context.Context, db string, rows int) error {
	q.mu.Lock()
	defer q.mu.Unlock()
	if q.used[db]+rows > q.limit {
		return fmt.Errorf("database %s: %w", db, grpcx.ErrRateLimited)
	}
	q.used[db] += rows
	return nil
}

// replicator forwards inserts to the change-data-capture endpoint.
type replicator struct {
	endpoint string
	hc       *http.Client
}

func (r *replicator) audit(ctx context.Context, op, target string) {
	body, _ := json.Marshal(map[string]string{"op": op, "target": target, "trace": log.TraceID(ctx)})
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, r.endpoint+"/audit", bytes.NewReader(body))
	if err != nil {
		return
	}
	if resp, err := r.hc.Do(req); err == nil {
		resp.Body.Close()
	}
}

func (r *replicator) replicate(ctx context.Context, vchannel string, msgs []*vdbpb.WALMessage) {
	var body bytes.Buffer
	for _, m := range msgs {
		body.Write(m.GetPayload())
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, r.endpoint+"/"+vchannel, &body)
	if err != nil {
		return
	}
	resp, err := r.hc.Do(req)
	if err != nil {
		log.Ctx(ctx).Warn("replicate", log.String("vchannel", vchannel), log.Err(err))
		return
	}
	resp.Body.Close()
}
