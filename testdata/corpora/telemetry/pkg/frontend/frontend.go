// Package frontend is the query-frontend: it splits searches into sub-queries
// by time, queues them fairly per tenant, runs them on a worker pool against
// the queriers, retries failures and caches merged results.
package frontend

import (
	"context"
	"errors"
	"fmt"
	"sort"
	"sync"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	"example.test/telemetry/gen/frontendpb"
	"example.test/telemetry/gen/ingesterpb"
	"example.test/telemetry/gen/querierpb"
	"example.test/telemetry/pkg/tenant"
	"example.test/telemetry/pkg/util/log"
	"example.test/telemetry/pkg/util/metrics"
	"example.test/telemetry/pkg/util/tracing"
)

var (
	queueLength = metrics.NewGauge("frontend_queue_length")
	retries     = metrics.NewCounter("frontend_retries_total")
	cacheHits   = metrics.NewCounter("frontend_cache_hits_total")
)

// Config configures the frontend.
type Config struct {
	SplitInterval  time.Duration
	Workers        int
	MaxOutstanding int
	MaxRetries     int
	RetryPenalty   time.Duration
	CacheTTL       time.Duration
	WarmTimeout    time.Duration
}

type warmReq struct {
	org string
	req *ingesterpb.SearchRequest
}

// Frontend implements frontendpb.FrontendServer.
type Frontend struct {
	frontendpb.UnimplementedFrontendServer

	cfg     Config
	querier querierpb.QuerierClient
	cache   *resultsCache
	queue   *requestQueue

	ctx    context.Context
	cancel context.CancelFunc

	mu        sync.Mutex
	queues    map[string]*tenantQueue
	tenantCtx map[string]context.Context
	warmCh    chan warmReq
	wg        sync.WaitGroup
}

// New returns a frontend sending sub-queries to querier.
func New(cfg Config, querier querierpb.QuerierClient, remote RemoteCache) *Frontend {
	f := &Frontend{
		cfg:       cfg,
		querier:   querier,
		cache:     newResultsCache(remote, cfg.CacheTTL),
		queue:     newRequestQueue(),
		queues:    map[string]*tenantQueue{},
		tenantCtx: map[string]context.Context{},
		warmCh:    make(chan warmReq, 64),
	}
	f.ctx, f.cancel = context.WithCancel(context.Background()) // OK: ctxbackground — constructor: the frontend's lifetime
	return f
}

// Register registers the frontend service on s.
func (f *Frontend) Register(s *grpc.Server) { frontendpb.RegisterFrontendServer(s, f) }

// Name implements services.Service.
func (f *Frontend) Name() string { return "query-frontend" }

// Start starts the worker pool.
func (f *Frontend) Start(context.Context) error {
	for n := 0; n < f.cfg.Workers; n++ {
		f.wg.Add(1)
		go f.worker()
	}
	f.wg.Add(1)
	go f.warmLoop()
	return nil
}

// Stop drains the workers and cancels every tenant queue.
func (f *Frontend) Stop() error {
	f.queue.close()
	close(f.warmCh)
	f.wg.Wait()
	f.mu.Lock()
	for org, tq := range f.queues {
		tq.stop()
		delete(f.queues, org)
		delete(f.tenantCtx, org)
	}
	f.mu.Unlock()
	f.cancel()
	return nil
}

func (f *Frontend) worker() {
	defer f.wg.Done()
	for {
		j, ok := f.queue.dequeue()
		if !ok {
			return
		}
		queueLength.Dec()
		f.runJob(j.ctx, j)
	}
}

// scheduleWarm asks the warmer to re-run the newest split of req once this
// request is done. It never blocks: a full warm queue drops the request.
func (f *Frontend) scheduleWarm(org string, req *ingesterpb.SearchRequest) {
	subs := split(req, f.cfg.SplitInterval)
	select {
	case f.warmCh <- warmReq{org: org, req: subs[len(subs)-1]}:
	default:
	}
}

// warmLoop re-runs popular searches after the requests that asked for them,
// so that the next dashboard refresh hits the cache.
func (f *Frontend) warmLoop() {
	defer f.wg.Done()
	for w := range f.warmCh {
		ctx, cancel := context.WithTimeout(tenant.With(context.Background(), w.org), f.cfg.WarmTimeout) // OK: ctxbackground — warm-up worker running after the request, not a request scope
		resp, err := f.querier.Search(tenant.Outgoing(ctx), w.req)                                      // OK: missingdeadline — bounded by WarmTimeout
		if err == nil {
			f.cache.Set(ctx, cacheKey(w.org, w.req), resp)
		}
		cancel()
	}
}

// runJob executes one queued sub-query on behalf of the request that queued
// it: ctx is that request's.
//
//deadlinelint:scope
func (f *Frontend) runJob(ctx context.Context, j *job) {
	if err := ctx.Err(); err != nil {
		j.result <- result{err: err}
		return
	}
	if j.attempt > 0 && f.cfg.RetryPenalty > 0 {
		time.Sleep(f.cfg.RetryPenalty) // OK: ctxless — a single penalty sleep for a requeued job, not a loop
	}
	var resp *ingesterpb.SearchResponse
	err := retry(ctx, f.cfg.MaxRetries, func(ctx context.Context) error {
		var err error
		resp, err = f.querier.Search(tenant.Outgoing(ctx), j.req) // OK: missingdeadline — marked request scope: the queued request's ctx
		return err
	})
	j.result <- result{resp: resp, err: err}
}

// retry runs fn up to n+1 times, backing off between attempts.
func retry(ctx context.Context, n int, fn func(context.Context) error) error {
	backoff := 50 * time.Millisecond
	for attempt := 0; ; attempt++ {
		err := fn(ctx)
		if err == nil || attempt >= n || !retryable(err) {
			return err
		}
		retries.Add(ctx, 1)
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(backoff):
		}
		backoff *= 2
	}
}

func retryable(err error) bool {
	switch status.Code(err) {
	case codes.Unavailable, codes.ResourceExhausted, codes.Aborted:
		return true
	}
	return false
}

// translate maps a sub-query failure to the frontend's answer.
func translate(err error) error {
	if errors.Is(err, context.DeadlineExceeded) || errors.Is(err, context.Canceled) {
		return status.FromContextError(err).Err()
	}
	if errors.Is(err, ErrTooManyRequests) {
		return status.Error(codes.ResourceExhausted, err.Error())
	}
	if s, ok := status.FromError(err); ok {
		return s.Err()
	}
	return status.Error(codes.Internal, err.Error())
}

func cacheKey(org string, req *ingesterpb.SearchRequest) string {
	keys := make([]string, 0, len(req.GetTags()))
	for k, v := range req.GetTags() {
		keys = append(keys, k+"="+v)
	}
	sort.Strings(keys)
	return fmt.Sprintf("%s:%v:%d:%d:%d", org, keys, req.GetStartUnixNano(), req.GetEndUnixNano(), req.GetLimit())
}

// split cuts the search into sub-queries of at most interval each.
func split(req *ingesterpb.SearchRequest, interval time.Duration) []*ingesterpb.SearchRequest {
	start, end := req.GetStartUnixNano(), req.GetEndUnixNano()
	if end == 0 || interval <= 0 || end-start <= interval.Nanoseconds() {
		return []*ingesterpb.SearchRequest{req}
	}
	var out []*ingesterpb.SearchRequest
	for s := start; s < end; s += interval.Nanoseconds() {
		e := min(s+interval.Nanoseconds(), end)
		out = append(out, &ingesterpb.SearchRequest{Tenant: req.GetTenant(), Tags: req.GetTags(), StartUnixNano: s, EndUnixNano: e, Limit: req.GetLimit()})
	}
	return out
}

// Search implements frontendpb.FrontendServer.
func (f *Frontend) Search(ctx context.Context, req *ingesterpb.SearchRequest) (*ingesterpb.SearchResponse, error) {
	org := tenant.ID(ctx)
	ctx, span := tracing.Start(ctx, "frontend.Search")
	defer span.End()
	key := cacheKey(org, req)
	if cached, ok := f.cache.Get(ctx, key); ok { // BUG: ctxbackground — the read-through cache fetches from the remote cache, outside its lock, on context.Background()
		cacheHits.Add(ctx, 1, org)
		return cached, nil
	}

	f.mu.Lock()
	tq, ok := f.queues[org]
	if !ok {
		tq = newTenantQueue(org, f.cfg.MaxOutstanding)
		tq.start(f.ctx) // OK: ctxflow — start only makes the queue's lifetime; the queue keeps the cancel
		f.queues[org] = tq
		f.tenantCtx[org] = tq.ctx
		f.queue.add(tq)
	}
	f.mu.Unlock()

	subs := split(req, f.cfg.SplitInterval)
	results := make(chan result, len(subs))
	for _, sub := range subs {
		j := &job{ctx: ctx, tenant: org, req: sub, result: results}
		if err := f.queue.enqueue(tq, j); err != nil {
			return nil, translate(err)
		}
		queueLength.Inc()
	}

	merged := &ingesterpb.SearchResponse{}
	for range subs {
		select {
		case <-ctx.Done():
			return nil, status.FromContextError(ctx.Err()).Err()
		case r := <-results:
			if r.err != nil {
				log.Warn(ctx, "sub-query failed", "err", r.err)
				return nil, status.Errorf(codes.Unavailable, "sub-query: %v", translate(r.err)) // OK: statusmask — translate, the module's mapping helper, handles the error
			}
			merged.TraceIds = append(merged.TraceIds, r.resp.GetTraceIds()...)
			merged.InspectedBlocks += r.resp.GetInspectedBlocks()
		}
	}
	if lim := req.GetLimit(); lim > 0 && uint32(len(merged.TraceIds)) > lim {
		merged.TraceIds = merged.TraceIds[:lim]
	}
	f.scheduleWarm(org, req)
	// The merged result is written back even when this caller has gone: the
	// next dashboard refresh asks for the same range.
	go f.cache.Set(context.WithoutCancel(ctx), key, merged) // OK: detach — a reason is given in the comment above
	return merged, nil
}

// FindTraceByID implements frontendpb.FrontendServer. Trace lookups are not
// split: they go straight to a querier.
func (f *Frontend) FindTraceByID(ctx context.Context, req *ingesterpb.TraceByIDRequest) (*ingesterpb.TraceByIDResponse, error) {
	org := tenant.ID(ctx)
	f.mu.Lock()
	tctx, ok := f.tenantCtx[org]
	f.mu.Unlock()
	if !ok {
		return nil, status.Errorf(codes.FailedPrecondition, "no active queue for tenant %q", org)
	}
	// Run under the tenant's queue lifetime so that tearing the tenant down
	// stops its lookups.
	resp, err := f.querier.FindTraceByID(tenant.Outgoing(tctx), req) // BUG: ctxflow — ctx read from the server's per-tenant map outlives the request
	if err != nil {
		return nil, err
	}
	return resp, nil
}
