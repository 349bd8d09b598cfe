// Package querier answers trace lookups and searches from the ingesters (recent
// data) and the block store (everything flushed).
package querier

import (
	"context"
	"errors"
	"sync"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	"example.test/telemetry/gen/ingesterpb"
	"example.test/telemetry/gen/pushpb"
	"example.test/telemetry/gen/querierpb"
	"example.test/telemetry/pkg/clientpool"
	"example.test/telemetry/pkg/ring"
	"example.test/telemetry/pkg/storage/blockstore"
	"example.test/telemetry/pkg/tenant"
	"example.test/telemetry/pkg/util/log"
	"example.test/telemetry/pkg/util/metrics"
	"example.test/telemetry/pkg/util/tracing"
)

// debugQueries dumps every query to the bucket; flip it when chasing a bug.
const debugQueries = false

var (
	queries       = metrics.NewCounter("querier_queries_total")
	queryDuration = metrics.NewHistogram("querier_query_seconds", []float64{.01, .1, 1, 10})
)

// ErrTenantNotFound is returned for a tenant no ingester knows.
var ErrTenantNotFound = errors.New("tenant not found")

// Config configures the querier.
type Config struct {
	ReplicationFactor int
	QueryTimeout      time.Duration
	TailPollInterval  time.Duration
}

// Querier implements querierpb.QuerierServer.
type Querier struct {
	querierpb.UnimplementedQuerierServer

	cfg    Config
	ring   *ring.Ring
	pool   *clientpool.Pool
	store  *blockstore.Store
	logger *log.Logger

	mu  sync.Mutex
	ctx context.Context
}

// New returns a querier.
func New(cfg Config, r *ring.Ring, pool *clientpool.Pool, store *blockstore.Store, logger *log.Logger) *Querier {
	return &Querier{cfg: cfg, ring: r, pool: pool, store: store, logger: logger}
}

// Register registers the querier service on s.
func (q *Querier) Register(s *grpc.Server) { querierpb.RegisterQuerierServer(s, q) }

// Name implements services.Service.
func (q *Querier) Name() string { return "querier" }

// Start keeps the service lifetime and prunes the client pool.
func (q *Querier) Start(ctx context.Context) error {
	q.mu.Lock()
	q.ctx = ctx
	q.mu.Unlock()
	go q.prunePool(ctx)
	return nil
}

// Stop implements services.Service.
func (q *Querier) Stop() error { return nil }

func (q *Querier) prunePool(ctx context.Context) {
	t := time.NewTicker(time.Minute)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
			live := map[string]bool{}
			for _, in := range q.ring.Members() {
				live[in.Addr] = true
			}
			q.pool.RemoveStale(live)
		}
	}
}

// newQueryContext returns a context bounded by the configured query timeout.
func (q *Querier) newQueryContext() (context.Context, context.CancelFunc) {
	return context.WithTimeout(context.Background(), q.cfg.QueryTimeout) // OK: ctxbackground — not a request scope: reported where the handler calls it
}

// toStatus maps an internal error to a gRPC status error.
func toStatus(err error, what string) error {
	switch {
	case err == nil:
		return nil
	case errors.Is(err, context.DeadlineExceeded), errors.Is(err, context.Canceled):
		return status.FromContextError(err).Err()
	case errors.Is(err, blockstore.ErrTraceNotFound), errors.Is(err, ErrTenantNotFound):
		return status.Error(codes.NotFound, what+": "+err.Error())
	}
	return status.Error(codes.Internal, what+": "+err.Error())
}

func (q *Querier) dumpQuery(ctx context.Context, req any) {
	q.logger.Info(ctx, "query", "req", req)
}

// FindTraceByID implements querierpb.QuerierServer.
func (q *Querier) FindTraceByID(ctx context.Context, req *ingesterpb.TraceByIDRequest) (*ingesterpb.TraceByIDResponse, error) {
	start := time.Now()
	org := tenant.ID(ctx)
	queries.Add(ctx, 1, org, "trace_by_id")
	if debugQueries {
		q.dumpQuery(context.Background(), req) // OK: ctxbackground — constant-false debug branch never runs
	}
	ctx, span := tracing.Start(ctx, "querier.FindTraceByID")
	defer span.End()

	rs, err := q.ring.Get(ring.TokenFor(org, req.GetTraceId()), q.cfg.ReplicationFactor)
	if err != nil {
		return nil, status.Errorf(codes.Unavailable, "ring: %v", err) // OK: statusmask — ring lookup takes no ctx
	}
	var (
		mu    sync.Mutex
		spans []*pushpb.Span
	)
	err = rs.Do(ctx, func(ctx context.Context, in ring.InstanceDesc) error {
		c, err := q.pool.GetClientFor(ctx, in.Addr)
		if err != nil {
			return err
		}
		resp, err := c.FindTraceByID(tenant.Outgoing(ctx), req) // OK: missingdeadline — closure of the handler, request ctx
		if err != nil {
			return err
		}
		mu.Lock()
		spans = append(spans, resp.GetSpans()...)
		mu.Unlock()
		return nil
	})
	if err != nil {
		return nil, toStatus(err, "ingesters")
	}
	stored, err := q.store.FindTrace(ctx, org, req.GetTraceId()) // BUG: ctxbackground — blockstore → index.Reader.Blocks lists the bucket on context.Background(), two packages down
	if err != nil && !errors.Is(err, blockstore.ErrTraceNotFound) {
		return nil, toStatus(err, "store")
	}
	spans = append(spans, stored...)
	queryDuration.Record(ctx, time.Since(start).Seconds(), org)
	return &ingesterpb.TraceByIDResponse{Spans: spans}, nil
}

// Search implements querierpb.QuerierServer.
func (q *Querier) Search(ctx context.Context, req *ingesterpb.SearchRequest) (*ingesterpb.SearchResponse, error) {
	org := tenant.ID(ctx)
	queries.Add(ctx, 1, org, "search")
	q.logger.Info(q.ctx, "search", "org", org, "tags", len(req.GetTags())) // OK: ctxflow — the logger only reads values from the ctx

	resp := &ingesterpb.SearchResponse{}
	seen := map[string]bool{}
	add := func(ids [][]byte) {
		for _, id := range ids {
			if !seen[string(id)] {
				seen[string(id)] = true
				resp.TraceIds = append(resp.TraceIds, id)
			}
		}
	}
	for _, in := range q.ring.All().Instances {
		c, err := q.pool.GetClientFor(q.ctx, in.Addr) // OK: ctxflow — dial helper that only dials with the ctx and keeps the connection
		if err != nil {
			log.Warn(ctx, "no client for ingester", "addr", in.Addr, "err", err)
			continue
		}
		r, err := c.SearchRecent(q.ctx, req) // BUG: ctxflow — the ingester fan-out runs on the querier's lifetime ctx, not the request's
		if err != nil {
			log.Warn(ctx, "ingester search failed", "addr", in.Addr, "err", err)
			continue
		}
		add(r.GetTraceIds())
		resp.InspectedBlocks += r.GetInspectedBlocks()
	}

	qctx, cancel := q.newQueryContext() // BUG: ctxbackground — helper returns WithTimeout(context.Background(), …): the store search no longer follows the caller
	defer cancel()
	ids, err := q.store.Search(qctx, org, req.GetTags(), req.GetStartUnixNano(), req.GetEndUnixNano()) // OK: ctxbackground — the index root is reported once for this package, at FindTraceByID's call
	if err != nil {
		return nil, status.Errorf(codes.Internal, "store search: %v", err) // OK: statusmask — error of a call made with a fresh root
	}
	add(ids)
	return resp, nil
}

// Tail implements querierpb.QuerierServer: it polls the ingesters for new
// traces matching the tags until the client goes away.
func (q *Querier) Tail(req *querierpb.TailRequest, stream grpc.ServerStreamingServer[pushpb.Span]) error {
	ctx := stream.Context()
	org := tenant.ID(ctx)
	// The poll must not inherit the proxy's short per-call timeout, but it
	// stops as soon as the client goes.
	pctx, cancel := context.WithCancel(tenant.With(context.Background(), org)) // OK: ctxbackground — cancelled by context.AfterFunc when the request's ctx is done
	defer cancel()
	stop := context.AfterFunc(ctx, cancel)
	defer stop()

	seen := map[string]bool{}
	t := time.NewTicker(q.cfg.TailPollInterval)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-t.C:
		}
		for _, in := range q.ring.All().Instances {
			c, err := q.pool.GetClientFor(pctx, in.Addr)
			if err != nil {
				continue
			}
			r, err := c.SearchRecent(tenant.Outgoing(pctx), &ingesterpb.SearchRequest{Tenant: org, Tags: req.GetTags(), Limit: 20}) // OK: missingdeadline — request scope; the ctx lives as long as the request's
			if err != nil {
				continue
			}
			for _, id := range r.GetTraceIds() {
				if seen[string(id)] {
					continue
				}
				seen[string(id)] = true
				if err := stream.Send(&pushpb.Span{TraceId: id}); err != nil {
					return err
				}
			}
		}
	}
}
