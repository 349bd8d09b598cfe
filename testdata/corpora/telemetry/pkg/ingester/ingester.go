// Package ingester keeps recent spans in per-tenant head blocks, writes them
// to a WAL and flushes them to the object store.
package ingester

import (
	"context"
	"errors"
	"net/http"
	"sort"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	"example.test/telemetry/gen/ingesterpb"
	"example.test/telemetry/gen/pushpb"
	"example.test/telemetry/pkg/clientpool"
	"example.test/telemetry/pkg/limits"
	"example.test/telemetry/pkg/objstore"
	"example.test/telemetry/pkg/storage/blockstore"
	"example.test/telemetry/pkg/storage/wal"
	"example.test/telemetry/pkg/tenant"
	"example.test/telemetry/pkg/util/failpoint"
	"example.test/telemetry/pkg/util/log"
	"example.test/telemetry/pkg/util/metrics"
	"example.test/telemetry/pkg/util/tracing"
)

var (
	appended            = metrics.NewCounter("ingester_spans_appended_total")
	flushedBlocks       = metrics.NewCounter("ingester_blocks_flushed_total")
	flushFailures       = metrics.NewCounter("ingester_flush_failures_total")
	replicationFailures = metrics.NewCounter("ingester_replication_failures_total")
	liveTenants         = metrics.NewGauge("ingester_live_tenants")
)

// Config configures the ingester.
type Config struct {
	WALDir             string
	MaxBlockDuration   time.Duration
	MaxBlockBytes      int64
	FlushCheckPeriod   time.Duration
	FlushOpTimeout     time.Duration
	ShutdownTimeout    time.Duration
	ConcurrentFlushes  int
	StandbyAddr        string
	ReplicationRetries int
	RemoteWriteURL     string
}

type flushOp struct {
	tenant string
}

// Ingester implements ingesterpb.IngesterServer.
type Ingester struct {
	ingesterpb.UnimplementedIngesterServer

	cfg         Config
	wal         *wal.WAL
	bucket      objstore.Bucket
	store       *blockstore.Store
	limits      limits.Provider
	pool        *clientpool.Pool
	remoteWrite *remoteWriter

	instancesMtx sync.Mutex
	instances    map[string]*instance

	flushQueue chan flushOp
	evalPool   sync.Pool
	bloomOnce  sync.Once
	blooms     map[string][]byte

	health   readiness
	announce *http.Client
	annURL   string

	ctx    context.Context
	cancel context.CancelFunc
	wg     sync.WaitGroup
}

// readiness answers whether the ingester may serve.
type readiness interface {
	Ready(ctx context.Context) error
}

// walReadiness is ready once the WAL has been replayed.
type walReadiness struct {
	replayed atomic.Bool
}

func (r *walReadiness) Ready(ctx context.Context) error {
	if !r.replayed.Load() {
		log.Debug(ctx, "ingester not ready: WAL replay in progress")
		return errors.New("WAL replay in progress")
	}
	return nil
}

// New returns an ingester.
func New(cfg Config, w *wal.WAL, bkt objstore.Bucket, store *blockstore.Store, lim limits.Provider, pool *clientpool.Pool) *Ingester {
	i := &Ingester{
		cfg:        cfg,
		wal:        w,
		bucket:     bkt,
		store:      store,
		limits:     lim,
		pool:       pool,
		instances:  map[string]*instance{},
		flushQueue: make(chan flushOp, 1024),
		health:     &walReadiness{},
		announce:   &http.Client{},
	}
	if cfg.RemoteWriteURL != "" {
		i.remoteWrite = &remoteWriter{url: cfg.RemoteWriteURL, client: &http.Client{}}
	}
	i.evalPool.New = func() any { return &evaluator{store: store} }
	i.ctx, i.cancel = context.WithCancel(context.Background()) // OK: ctxbackground — constructor: the ingester's lifetime
	return i
}

// Register registers the ingester service on s.
func (i *Ingester) Register(s *grpc.Server) { ingesterpb.RegisterIngesterServer(s, i) }

// Name implements services.Service.
func (i *Ingester) Name() string { return "ingester" }

// Start replays the WAL and starts the flush loop.
func (i *Ingester) Start(ctx context.Context) error {
	err := i.wal.Replay(ctx, func(r wal.Record) error {
		inst, err := i.getOrCreateInstance(r.Tenant)
		if err != nil {
			return err
		}
		return inst.append(r.Spans)
	})
	if err != nil {
		return err
	}
	i.health.(*walReadiness).replayed.Store(true)
	for n := 0; n < i.cfg.ConcurrentFlushes; n++ {
		i.wg.Add(1)
		go i.flushWorker()
	}
	go i.loop()
	return nil
}

// Stop flushes every head block and closes the WAL.
func (i *Ingester) Stop() error {
	i.cancel()
	close(i.flushQueue)
	i.wg.Wait()
	// i.ctx is cancelled by now: the final flush needs a budget of its own.
	ctx, cancel := context.WithTimeout(context.Background(), i.cfg.ShutdownTimeout) // OK: ctxbackground — Stop is not a request scope
	defer cancel()
	for _, org := range i.tenants() {
		if _, err := i.flushTenant(ctx, org); err != nil {
			log.Error(ctx, "final flush failed", "org", org, "err", err)
		}
	}
	return i.wal.Close()
}

func (i *Ingester) loop() {
	t := time.NewTicker(i.cfg.FlushCheckPeriod)
	defer t.Stop()
	for {
		select {
		case <-i.ctx.Done():
			return
		case <-t.C:
			i.sweep()
		}
	}
}

func (i *Ingester) sweep() {
	now := time.Now()
	for _, org := range i.tenants() {
		inst, ok := i.getInstance(org)
		if ok && inst.shouldFlush(now, i.cfg.MaxBlockDuration, i.cfg.MaxBlockBytes) {
			select {
			case i.flushQueue <- flushOp{tenant: org}:
			default:
			}
		}
	}
}

func (i *Ingester) flushWorker() {
	defer i.wg.Done()
	for op := range i.flushQueue {
		ctx, cancel := context.WithTimeout(i.ctx, i.cfg.FlushOpTimeout) // OK: ctxflow — flush worker is not a request scope
		if _, err := i.flushTenant(ctx, op.tenant); err != nil {
			flushFailures.Add(ctx, 1, op.tenant)
			log.Warn(ctx, "flush failed", "org", op.tenant, "err", err)
		}
		cancel()
	}
}

func (i *Ingester) tenants() []string {
	i.instancesMtx.Lock()
	defer i.instancesMtx.Unlock()
	out := make([]string, 0, len(i.instances))
	for org := range i.instances {
		out = append(out, org)
	}
	sort.Strings(out)
	return out
}

func (i *Ingester) getInstance(org string) (*instance, bool) {
	i.instancesMtx.Lock()
	defer i.instancesMtx.Unlock()
	inst, ok := i.instances[org]
	return inst, ok
}

// getOrCreateInstance returns the tenant's instance, creating it on the
// tenant's first push. The instance is kept for the life of the ingester.
func (i *Ingester) getOrCreateInstance(org string) (*instance, error) {
	i.instancesMtx.Lock()
	defer i.instancesMtx.Unlock()
	if inst, ok := i.instances[org]; ok {
		return inst, nil
	}
	inst := newInstance(org, i.limits.Limits(context.Background(), org))    // OK: ctxbackground — not a request scope; limits answer from memory
	if err := inst.loadRecent(context.Background(), i.bucket); err != nil { // OK: ctxbackground — not a request scope; per-tenant state created once under the lock
		return nil, err
	}
	i.instances[org] = inst
	liveTenants.Inc()
	return inst, nil
}

// flushTenant cuts the tenant's head block and writes it to the store.
func (i *Ingester) flushTenant(ctx context.Context, org string) (uint32, error) {
	inst, ok := i.getInstance(org)
	if !ok {
		return 0, nil
	}
	meta, blk := inst.cutBlock()
	if blk == nil {
		return 0, nil
	}
	if err := i.store.WriteBlock(ctx, meta, blk); err != nil {
		inst.restore(blk)
		return 0, err
	}
	if err := i.wal.Truncate(org); err != nil {
		log.Warn(ctx, "truncating WAL", "org", org, "err", err)
	}
	inst.addRecent(meta.BlockID)
	flushedBlocks.Add(ctx, 1, org)
	return 1, nil
}

// loadBlooms reads the bloom filters of every tenant's recent blocks.
func (i *Ingester) loadBlooms(ctx context.Context) {
	blooms := map[string][]byte{}
	for _, org := range i.tenants() {
		inst, _ := i.getInstance(org)
		for _, id := range inst.recentIDs() {
			if data, err := i.bucket.Get(ctx, org+"/"+id+"/bloom"); err == nil {
				blooms[org+"/"+id] = data
			}
		}
	}
	i.blooms = blooms
}

// errCode maps storage errors to gRPC codes; Unknown when it has no opinion.
func errCode(err error) codes.Code {
	switch {
	case errors.Is(err, context.DeadlineExceeded):
		return codes.DeadlineExceeded
	case errors.Is(err, context.Canceled):
		return codes.Canceled
	case errors.Is(err, objstore.ErrObjectNotFound), errors.Is(err, blockstore.ErrTraceNotFound):
		return codes.NotFound
	}
	return codes.Unknown
}

// Push implements ingesterpb.IngesterServer.
func (i *Ingester) Push(ctx context.Context, req *pushpb.PushRequest) (*pushpb.PushResponse, error) {
	org := tenant.ID(ctx)
	if org == "" {
		org = req.GetTenant()
	}
	inst, err := i.getOrCreateInstance(org) // OK: ctxbackground — per-tenant instance created once under the lock and kept
	if err != nil {
		return nil, status.Errorf(codes.Internal, "tenant %s: %v", org, err) // OK: statusmask — getOrCreateInstance is given no request ctx
	}
	if err := inst.append(req.GetSpans()); err != nil {
		return nil, status.Error(codes.ResourceExhausted, err.Error())
	}
	failpoint.Inject("ingester-before-wal", func() {
		_ = i.bucket.Upload(context.Background(), "failpoints/"+org, nil) // OK: ctxbackground — literal handed to a no-op marker: never runs
	})
	if err := i.wal.Append(wal.Record{Tenant: org, Spans: req.GetSpans()}); err != nil {
		return nil, status.Errorf(codes.Internal, "wal: %v", err) // OK: statusmask — WAL append takes no ctx
	}
	appended.Add(ctx, float64(len(req.GetSpans())), org)
	if i.cfg.StandbyAddr != "" {
		go i.replicate(ctx, org, req)
	}
	if i.remoteWrite != nil {
		spans := req.GetSpans()
		// TODO: bound the remote write once the generator has an SLO.
		rwctx := context.WithoutCancel(ctx)
		// ^BUG: detach — a TODO is no reason, and nothing bounds the remote write

		go i.remoteWrite.Send(rwctx, org, spans)
	}
	return &pushpb.PushResponse{Accepted: int64(len(req.GetSpans()))}, nil
}

// replicate copies a push to the warm standby.
func (i *Ingester) replicate(ctx context.Context, org string, req *pushpb.PushRequest) {
	backoff := 50 * time.Millisecond
	for attempt := 1; attempt <= i.cfg.ReplicationRetries; attempt++ {
		c, err := i.pool.GetClientFor(ctx, i.cfg.StandbyAddr)
		if err == nil {
			_, err = c.Push(tenant.Outgoing(ctx), req) // OK: missingdeadline — goroutine the handler starts with its ctx: a request scope
			if err == nil {
				return
			}
		}
		replicationFailures.Add(ctx, 1, org)
		log.Warn(ctx, "replication to standby failed", "attempt", attempt, "err", err)
		time.Sleep(backoff) // BUG: ctxless — retry backoff in a loop that never checks the ctx
		backoff *= 2
	}
}

// FindTraceByID implements ingesterpb.IngesterServer.
func (i *Ingester) FindTraceByID(ctx context.Context, req *ingesterpb.TraceByIDRequest) (*ingesterpb.TraceByIDResponse, error) {
	org := tenant.ID(ctx)
	inst, ok := i.getInstance(org)
	if !ok {
		return &ingesterpb.TraceByIDResponse{}, nil
	}
	spans := inst.findInHead(ctx, req.GetTraceId())
	if len(spans) > 0 {
		return &ingesterpb.TraceByIDResponse{Spans: spans}, nil
	}
	stored, err := i.store.FindTraceIn(ctx, org, inst.recentIDs(), req.GetTraceId())
	if err != nil {
		if errors.Is(err, blockstore.ErrTraceNotFound) {
			return &ingesterpb.TraceByIDResponse{}, nil
		}
		if code := errCode(err); code != codes.Unknown {
			return nil, status.Error(code, err.Error())
		}
		return nil, status.Errorf(codes.Internal, "recent blocks: %v", err) // OK: statusmask — errCode, the module's mapping helper, sorted deadlines out above
	}
	return &ingesterpb.TraceByIDResponse{Spans: stored}, nil
}

// SearchRecent implements ingesterpb.IngesterServer.
func (i *Ingester) SearchRecent(ctx context.Context, req *ingesterpb.SearchRequest) (*ingesterpb.SearchResponse, error) {
	org := tenant.ID(ctx)
	inst, ok := i.getInstance(org)
	if !ok {
		return &ingesterpb.SearchResponse{}, nil
	}
	lim := i.limits.Limits(ctx, org)
	if lim.MaxSearchDuration > 0 && req.GetEndUnixNano()-req.GetStartUnixNano() > lim.MaxSearchDuration.Nanoseconds() {
		return nil, status.Errorf(codes.InvalidArgument, "search range exceeds %s", lim.MaxSearchDuration)
	}
	i.bloomOnce.Do(func() { i.loadBlooms(context.Background()) }) // OK: ctxbackground — one-time load run by sync.Once
	ev := i.evalPool.Get().(*evaluator)
	ev.SetContext(ctx)
	resp, err := ev.Run(inst, req)      // OK: ctxbackground — the only root on Run's way is its nil-ctx fallback
	ev.SetContext(context.Background()) // OK: ctxbackground — idle ctx reset before the pooled evaluator goes back
	i.evalPool.Put(ev)
	if err != nil {
		if errors.Is(err, context.DeadlineExceeded) || errors.Is(err, context.Canceled) {
			return nil, status.FromContextError(err).Err()
		}
		return nil, status.Errorf(codes.Internal, "search: %v", err) // OK: statusmask — errors.Is picked the context errors out first
	}
	return resp, nil
}

// Flush implements ingesterpb.IngesterServer: it flushes the tenant's head
// block now (used by tctl and before a tenant is deleted).
func (i *Ingester) Flush(ctx context.Context, req *ingesterpb.FlushRequest) (*ingesterpb.FlushResponse, error) {
	org := req.GetTenant()
	if org == "" {
		org = tenant.ID(ctx)
	}
	if err := i.health.Ready(i.ctx); err != nil { // OK: ctxflow — the only readiness value is in sight and only logs with the ctx
		return nil, status.Error(codes.Unavailable, err.Error()) // OK: statusmask — Ready is given the lifetime ctx and only logs with it
	}
	n, err := i.flushTenant(ctx, org) // OK: ctxbackground — WriteBlock's root is a bounded rollback after a failure
	if err != nil {
		log.Warn(ctx, "flush failed, retrying with a fresh budget", "org", org, "err", err)
		n, err = i.flushTenant(context.Background(), org) // BUG: ctxbackground — a fallback whose answer is returned, not cleanup on the way out
		if err != nil {
			return nil, status.Errorf(codes.Unavailable, "flush %s: %v", org, err) // OK: statusmask — error of the retry made with a fresh context
		}
	}
	if i.annURL != "" {
		go i.announceFlush(tracing.Detach(ctx), org, n) // OK: ctxbackground — documented helper that copies values onto a fresh root: WithoutCancel by hand
	}
	return &ingesterpb.FlushResponse{FlushedBlocks: n}, nil
}

// announceFlush tells the compactor that new blocks are there.
func (i *Ingester) announceFlush(ctx context.Context, org string, n uint32) {
	ctx, cancel := context.WithTimeout(ctx, 5*time.Second)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, i.annURL, strings.NewReader(org+" "+strconv.Itoa(int(n))))
	if err != nil {
		return
	}
	if resp, err := i.announce.Do(req); err == nil {
		_ = resp.Body.Close()
	}
}
