// Package distributor receives spans from clients, applies per-tenant limits
// and sends each trace to the ingesters that own it on the ring.
package distributor

import (
	"context"
	"errors"
	"io"
	"net/http"
	"sync"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/proto"

	"example.test/telemetry/gen/pushpb"
	"example.test/telemetry/pkg/clientpool"
	"example.test/telemetry/pkg/limits"
	"example.test/telemetry/pkg/ring"
	"example.test/telemetry/pkg/tenant"
	"example.test/telemetry/pkg/usage"
	"example.test/telemetry/pkg/util/log"
	"example.test/telemetry/pkg/util/metrics"
	"example.test/telemetry/pkg/util/tracing"
)

var (
	received  = metrics.NewCounter("distributor_spans_received_total")
	discarded = metrics.NewCounter("distributor_spans_discarded_total")
	coldConns = metrics.NewCounter("distributor_cold_connections_total")
	pushSize  = metrics.NewHistogram("distributor_push_bytes", []float64{1 << 10, 1 << 14, 1 << 18, 1 << 22})
)

// Config configures the distributor.
type Config struct {
	ReplicationFactor int
	RejectPenalty     time.Duration
	ForwardURL        string
	UsageURL          string
}

// Distributor implements pushpb.PusherServer.
type Distributor struct {
	pushpb.UnimplementedPusherServer

	cfg       Config
	ring      *ring.Ring
	pool      *clientpool.Pool
	limits    limits.Provider
	limiter   *limits.RateLimiter
	forwarder *Forwarder
	usage     *usage.Reporter

	mu      sync.Mutex
	ctx     context.Context
	cancel  context.CancelFunc
	stopped bool
}

// New returns a distributor.
func New(cfg Config, r *ring.Ring, pool *clientpool.Pool, lim limits.Provider) *Distributor {
	d := &Distributor{
		cfg:     cfg,
		ring:    r,
		pool:    pool,
		limits:  lim,
		limiter: limits.NewRateLimiter(),
		usage:   usage.NewReporter(cfg.UsageURL),
	}
	if cfg.ForwardURL != "" {
		d.forwarder = &Forwarder{URL: cfg.ForwardURL, Client: &http.Client{}}
	}
	d.ctx, d.cancel = context.WithCancel(context.Background()) // OK: ctxbackground — constructor, the distributor's own lifetime
	return d
}

// Register registers the push service on s.
func (d *Distributor) Register(s *grpc.Server) { pushpb.RegisterPusherServer(s, d) }

// Name implements services.Service.
func (d *Distributor) Name() string { return "distributor" }

// Start implements services.Service.
func (d *Distributor) Start(ctx context.Context) error {
	go d.watchRing(d.ctx)
	return nil
}

// Stop implements services.Service.
func (d *Distributor) Stop() error {
	d.mu.Lock()
	defer d.mu.Unlock()
	d.stopped = true
	d.cancel()
	return nil
}

func (d *Distributor) watchRing(ctx context.Context) {
	t := time.NewTicker(30 * time.Second)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
			live := map[string]bool{}
			for _, in := range d.ring.Members() {
				live[in.Addr] = true
			}
			d.pool.RemoveStale(live)
		}
	}
}

// shard groups the request's spans by the ingester owning their trace.
func (d *Distributor) shard(org string, req *pushpb.PushRequest) (map[string]*pushpb.PushRequest, map[string]ring.InstanceDesc, error) {
	batches := map[string]*pushpb.PushRequest{}
	owners := map[string]ring.InstanceDesc{}
	for _, sp := range req.GetSpans() {
		rs, err := d.ring.Get(ring.TokenFor(org, sp.GetTraceId()), d.cfg.ReplicationFactor)
		if err != nil {
			return nil, nil, err
		}
		for _, in := range rs.Instances {
			b, ok := batches[in.ID]
			if !ok {
				b = &pushpb.PushRequest{Tenant: org}
				batches[in.ID] = b
				owners[in.ID] = in
			}
			b.Spans = append(b.Spans, sp)
		}
	}
	return batches, owners, nil
}

// sendToIngesters pushes every batch to its ingester in parallel.
func (d *Distributor) sendToIngesters(ctx context.Context, batches map[string]*pushpb.PushRequest, owners map[string]ring.InstanceDesc) error {
	rs := ring.ReplicationSet{MaxErrors: (d.cfg.ReplicationFactor - 1) / 2}
	for _, in := range owners {
		rs.Instances = append(rs.Instances, in)
	}
	return rs.Do(ctx, func(ctx context.Context, in ring.InstanceDesc) error {
		c, err := d.pool.GetClientFor(ctx, in.Addr)
		if err != nil {
			return err
		}
		_, err = c.Push(tenant.Outgoing(ctx), batches[in.ID]) // OK: missingdeadline — ctx is the handler's, handed down through sendToIngesters
		return err
	})
}

// Push implements pushpb.PusherServer.
func (d *Distributor) Push(ctx context.Context, req *pushpb.PushRequest) (*pushpb.PushResponse, error) {
	org := tenant.ID(ctx)
	if org == "" {
		return nil, status.Error(codes.Unauthenticated, tenant.ErrNoTenant.Error())
	}
	lim := d.limits.Limits(context.Background(), org) // OK?: ctxbackground — every Provider in sight answers from memory and ignores its ctx, but the field is set from New's parameter: a value out of sight, which the catalogue's in-handler rule does not trust (its interface-call paragraph says every implementation in sight is enough)
	size := proto.Size(req)
	pushSize.Record(ctx, float64(size), org)
	if !d.limiter.AllowN(org, time.Now(), float64(lim.IngestionRateBytes), float64(lim.IngestionBurst), size) {
		discarded.Add(ctx, float64(len(req.GetSpans())), org, "rate_limited")
		time.Sleep(d.cfg.RejectPenalty) // OK: ctxless — one deliberate penalty sleep, not a loop
		return nil, status.Errorf(codes.ResourceExhausted, "ingestion rate limit (%d bytes/s) exceeded", lim.IngestionRateBytes)
	}

	ctx, span := tracing.Start(ctx, "distributor.Push")
	defer span.End()
	received.Add(context.Background(), float64(len(req.GetSpans())), org) // OK: ctxbackground — metric Add only reads values

	batches, owners, err := d.shard(org, req)
	if err != nil {
		return nil, status.Errorf(codes.Unavailable, "ring: %v", err) // OK: statusmask — ring lookup takes no ctx
	}
	for _, in := range owners {
		if _, ok := d.pool.Lookup(in.Addr); !ok { // OK: ctxless — LookupContext only logs and records a metric with its ctx
			coldConns.Add(ctx, 1, in.Addr)
			if _, err := d.pool.GetClientFor(d.ctx, in.Addr); err != nil { // OK: ctxflow — dial helper: dials with the ctx and keeps the connection
				log.Warn(ctx, "dialling ingester", "addr", in.Addr, "err", err)
			}
		}
	}
	if err := d.sendToIngesters(ctx, batches, owners); err != nil {
		return nil, status.Errorf(codes.Unavailable, "push to ingesters: %v", err) // BUG: statusmask — a deadline or cancellation from the fan-out becomes Unavailable
	}

	if d.forwarder != nil {
		go d.forwarder.Forward(context.Background(), org, req) // BUG: ctxbackground — the forward runs on a goroutine the handler starts, with a fresh root and no bound
	}
	n := int64(size)
	go d.usage.Report(context.WithoutCancel(ctx), org, n)
	// ^BUG: detach — usage POST detached from the request with neither a bound nor a reason
	return &pushpb.PushResponse{Accepted: int64(len(req.GetSpans()))}, nil
}

// PushStream implements pushpb.PusherServer for agents that batch over one
// long-lived stream.
func (d *Distributor) PushStream(stream grpc.ClientStreamingServer[pushpb.PushRequest, pushpb.PushResponse]) error {
	ctx := stream.Context()
	var accepted, rejected int64
	for {
		req, err := stream.Recv()
		if errors.Is(err, io.EOF) {
			go d.usage.ReportBounded(context.WithoutCancel(ctx), tenant.ID(ctx), accepted) // OK: detach — ReportBounded applies its own timeout
			return stream.SendAndClose(&pushpb.PushResponse{Accepted: accepted, Rejected: rejected})
		}
		if err != nil {
			return err
		}
		resp, err := d.Push(ctx, req) // OK: ctxbackground — the only root Push works with runs on a goroutine it starts
		if err != nil {
			if status.Code(err) == codes.ResourceExhausted {
				rejected += int64(len(req.GetSpans()))
				log.Debug(context.TODO(), "stream batch rate limited", "org", tenant.ID(ctx)) // OK: ctxbackground — root only carries log values
				continue
			}
			return err
		}
		accepted += resp.GetAccepted()
	}
}
