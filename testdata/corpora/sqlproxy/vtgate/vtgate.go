// Package vtgate is the query router: it parses each statement, finds the
// keyspace and shard it belongs to, and sends it to a healthy tablet.
package vtgate

import (
	"context"
	"errors"
	"net/http"
	"sync"
	"time"

	"golang.org/x/sync/singleflight"
	"google.golang.org/grpc"

	"example.test/sqlproxy/gen/querypb"
	"example.test/sqlproxy/gen/vtgatepb"
	"example.test/sqlproxy/topo"
)

// ErrUnknownKeyspace is returned for a keyspace the router does not serve.
var ErrUnknownKeyspace = errors.New("unknown keyspace")

// Config configures the router.
type Config struct {
	Cell               string
	ThrottleQPS        int
	ThrottlePenalty    time.Duration
	HealthWaitInterval time.Duration
	MaxHealthWaits     int
	RetryBackoff       time.Duration
	KillTimeout        time.Duration
	PlanTimeout        time.Duration
	VSchemaTTL         time.Duration
	QueryLogURL        string
}

// VTGate serves the VTGate service.
type VTGate struct {
	vtgatepb.UnimplementedVTGateServer

	cfg       Config
	ts        *topo.Server
	hc        *HealthCheck
	gw        *TabletGateway
	vschemas  *vschemaCache
	overrides VSchemaOverrides
	qlog      *QueryLogger
	plans     singleflight.Group
	planCache *planCache
	evalPool  sync.Pool

	loadRoutingRules func() (*topo.RoutingRules, error)

	vindexOnce sync.Once
	vindexes   map[string]string
	vindexErr  error

	mu           sync.Mutex
	executors    map[string]*keyspaceExecutor
	srvKeyspaces map[string]*topo.SrvKeyspace
	watching     map[string]bool
	qpsWindow    time.Time
	qpsCount     map[string]int
}

// New returns a router over ts. overrides, when not empty, take precedence
// over the vschemas of the topo.
func New(cfg Config, ts *topo.Server, hc *HealthCheck, overrides map[string]*topo.VSchema) *VTGate {
	vtg := &VTGate{
		cfg:          cfg,
		ts:           ts,
		hc:           hc,
		gw:           &TabletGateway{hc: hc, ts: ts, conns: map[string]querypb.QueryClient{}},
		vschemas:     &vschemaCache{ts: ts, ttl: cfg.VSchemaTTL, entries: map[string]vschemaEntry{}},
		overrides:    noOverrides{},
		qlog:         &QueryLogger{client: &http.Client{}, url: cfg.QueryLogURL},
		planCache:    &planCache{m: map[string]*plan{}},
		executors:    map[string]*keyspaceExecutor{},
		srvKeyspaces: map[string]*topo.SrvKeyspace{},
		watching:     map[string]bool{},
		qpsCount:     map[string]int{},
	}
	if len(overrides) > 0 {
		vtg.overrides = staticOverrides(overrides)
	}
	vtg.loadRoutingRules = sync.OnceValues(func() (*topo.RoutingRules, error) {
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second) // OK: ctxbackground — made in the constructor, run once by sync.OnceValues
		defer cancel()
		return ts.GetRoutingRules(ctx)
	})
	vtg.evalPool.New = func() any { return &evaluator{gw: vtg.gw} }
	return vtg
}

// Register registers the VTGate service on gs.
func (vtg *VTGate) Register(gs *grpc.Server) {
	vtgatepb.RegisterVTGateServer(gs, vtg)
}

// Warm loads the serving graph of keyspaces before the router serves.
func (vtg *VTGate) Warm(ctx context.Context, keyspaces []string) error {
	for _, ks := range keyspaces {
		if _, err := vtg.shardsFor(ctx, ks, true); err != nil {
			return err
		}
	}
	return nil
}

// Close flushes the gateway's stats.
func (vtg *VTGate) Close() {
	vtg.gw.Close()
}

// throttled reports whether keyspace is over its query rate this second.
func (vtg *VTGate) throttled(keyspace string) bool {
	if vtg.cfg.ThrottleQPS <= 0 {
		return false
	}
	vtg.mu.Lock()
	defer vtg.mu.Unlock()
	if now := time.Now(); now.Sub(vtg.qpsWindow) > time.Second {
		vtg.qpsWindow = now
		clear(vtg.qpsCount)
	}
	vtg.qpsCount[keyspace]++
	return vtg.qpsCount[keyspace] > vtg.cfg.ThrottleQPS
}
