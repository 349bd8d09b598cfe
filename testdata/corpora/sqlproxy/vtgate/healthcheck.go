package vtgate

import (
	"context"
	"fmt"
	"sync"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials/insecure"

	"example.test/sqlproxy/gen/querypb"
	"example.test/sqlproxy/gen/tabletmanagerpb"
	"example.test/sqlproxy/internal/servenv"
	"example.test/sqlproxy/topo"
)

type tabletHealth struct {
	tablet    *topo.Tablet
	conn      *grpc.ClientConn
	target    *querypb.Target
	serving   bool
	reachable bool
	lag       int64
	cancel    context.CancelFunc
}

// HealthCheck discovers the tablets of a cell and follows their health.
type HealthCheck struct {
	ts            *topo.Server
	cell          string
	probeInterval time.Duration

	ctx    context.Context
	cancel context.CancelFunc

	mu      sync.Mutex
	tablets map[string]*tabletHealth
	changed chan struct{}
}

// NewHealthCheck returns a health check of cell; Start starts it.
func NewHealthCheck(ts *topo.Server, cell string, probeInterval time.Duration) *HealthCheck {
	ctx, cancel := context.WithCancel(context.Background()) // OK: ctxbackground — constructor: the health check's lifetime
	return &HealthCheck{
		ts:            ts,
		cell:          cell,
		probeInterval: probeInterval,
		ctx:           ctx,
		cancel:        cancel,
		tablets:       map[string]*tabletHealth{},
		changed:       make(chan struct{}),
	}
}

// Start starts discovery and the lag canary.
func (hc *HealthCheck) Start() {
	go hc.discoveryLoop()
	go hc.lagCanary()
}

// Stop stops every loop.
func (hc *HealthCheck) Stop() { hc.cancel() }

func (hc *HealthCheck) discoveryLoop() {
	t := time.NewTicker(30 * time.Second)
	defer t.Stop()
	for {
		ctx, cancel := context.WithTimeout(hc.ctx, 10*time.Second)
		tablets, err := hc.ts.GetTabletsByCell(ctx, hc.cell)
		cancel()
		if err != nil {
			servenv.Warningf(hc.ctx, "discovery in %s: %v", hc.cell, err)
		}
		for _, t := range tablets {
			hc.addTablet(t)
		}
		select {
		case <-hc.ctx.Done():
			return
		case <-t.C:
		}
	}
}

func (hc *HealthCheck) addTablet(t *topo.Tablet) {
	hc.mu.Lock()
	defer hc.mu.Unlock()
	if _, ok := hc.tablets[t.Alias]; ok {
		return
	}
	cc, err := grpc.NewClient(t.Addr, grpc.WithTransportCredentials(insecure.NewCredentials()))
	if err != nil {
		servenv.Warningf(hc.ctx, "tablet %s: %v", t.Alias, err)
		return
	}
	tctx, cancel := context.WithCancel(hc.ctx)
	th := &tabletHealth{
		tablet: t,
		conn:   cc,
		cancel: cancel,
		target: &querypb.Target{Keyspace: t.Keyspace, Shard: t.Shard, TabletType: t.Type},
	}
	hc.tablets[t.Alias] = th
	go hc.streamHealth(tctx, th)
	go hc.probe(tctx, th)
}

func (hc *HealthCheck) notifyLocked() {
	close(hc.changed)
	hc.changed = make(chan struct{})
}

func (hc *HealthCheck) streamHealth(ctx context.Context, th *tabletHealth) {
	client := querypb.NewQueryClient(th.conn)
	for {
		stream, err := client.StreamHealth(ctx, &querypb.StreamHealthRequest{}) // OK: missingdeadline — a streaming call
		if err == nil {
			for {
				shr, err := stream.Recv()
				if err != nil {
					break
				}
				hc.mu.Lock()
				th.serving = shr.GetServing()
				th.lag = shr.GetRealtimeStats().GetReplicationLagSeconds()
				if t := shr.GetTarget(); t != nil {
					th.target = t
				}
				hc.notifyLocked()
				hc.mu.Unlock()
			}
		}
		select {
		case <-ctx.Done():
			return
		case <-time.After(5 * time.Second):
		}
	}
}

// probe pings the tablet manager of th once per probe interval.
func (hc *HealthCheck) probe(ctx context.Context, th *tabletHealth) {
	tm := tabletmanagerpb.NewTabletManagerClient(th.conn)
	t := time.NewTicker(hc.probeInterval)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
		_, err := tm.Ping(context.Background(), &tabletmanagerpb.PingRequest{Payload: "healthcheck"}) // BUG: missingdeadline — no deadline: a tablet that accepts the connection but never answers hangs the prober for good, and stays "reachable"
		hc.mu.Lock()
		if th.reachable != (err == nil) {
			th.reachable = err == nil
			hc.notifyLocked()
		}
		hc.mu.Unlock()
	}
}

func (hc *HealthCheck) primaries() []*tabletHealth {
	hc.mu.Lock()
	defer hc.mu.Unlock()
	var out []*tabletHealth
	for _, th := range hc.tablets {
		if th.target.GetTabletType() == "primary" {
			out = append(out, th)
		}
	}
	return out
}

// lagCanary reads the heartbeat table of every primary once per interval;
// each cycle is bounded by the next tick.
func (hc *HealthCheck) lagCanary() {
	t := time.NewTicker(hc.probeInterval)
	defer t.Stop()
	for {
		select {
		case <-hc.ctx.Done():
			return
		case <-t.C:
		}
		for _, th := range hc.primaries() {
			ctx, cancel := context.WithTimeout(hc.ctx, hc.probeInterval)
			_, err := querypb.NewQueryClient(th.conn).Execute(ctx, &querypb.ExecuteRequest{ // OK: missingdeadline — a deadline derived anew on each turn, bounded by the next tick
				Target: th.target,
				Query:  &querypb.BoundQuery{Sql: "SELECT ts FROM _vt.heartbeat"},
			})
			cancel()
			if err != nil {
				servenv.Warningf(hc.ctx, "heartbeat of %s: %v", th.tablet.Alias, err)
			}
		}
	}
}

func (hc *HealthCheck) healthyLocked(target *querypb.Target) *tabletHealth {
	for _, th := range hc.tablets {
		t := th.target
		if t.GetKeyspace() == target.GetKeyspace() && t.GetShard() == target.GetShard() &&
			t.GetTabletType() == target.GetTabletType() && th.serving && th.reachable {
			return th
		}
	}
	return nil
}

func (hc *HealthCheck) hasHealthy(target *querypb.Target) bool {
	hc.mu.Lock()
	defer hc.mu.Unlock()
	return hc.healthyLocked(target) != nil
}

func (hc *HealthCheck) healthyTablet(target *querypb.Target) (*tabletHealth, error) {
	hc.mu.Lock()
	defer hc.mu.Unlock()
	if th := hc.healthyLocked(target); th != nil {
		return th, nil
	}
	return nil, fmt.Errorf("no healthy %s tablet for %s/%s", target.GetTabletType(), target.GetKeyspace(), target.GetShard())
}

// WaitForTablets waits until every shard of keyspace has a healthy tablet
// of tabletType, or ctx is done.
func (hc *HealthCheck) WaitForTablets(ctx context.Context, keyspace, tabletType string) error {
	for {
		hc.mu.Lock()
		ok := false
		for _, th := range hc.tablets {
			if th.target.GetKeyspace() == keyspace && th.target.GetTabletType() == tabletType && th.serving {
				ok = true
			}
		}
		changed := hc.changed
		hc.mu.Unlock()
		if ok {
			return nil
		}
		select {
		case <-ctx.Done():
			return fmt.Errorf("waiting for %s tablets of %s: %w", tabletType, keyspace, ctx.Err())
		case <-changed:
		}
	}
}
