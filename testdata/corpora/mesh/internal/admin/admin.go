// Package admin is the control plane's admin API (connect-go) and its debug endpoints.
package admin

import (
	"context"
	"fmt"
	"log/slog"
	"strconv"
	"sync"
	"time"

	"connectrpc.com/connect"

	"example.test/mesh/gen/adminv1"
	"example.test/mesh/gen/discoveryv1"
	"example.test/mesh/internal/clientx"
	"example.test/mesh/internal/store"
	"example.test/mesh/internal/telemetry"
	"example.test/mesh/internal/xds"
)

// processCtx is the control plane's lifetime, set by Init.
var processCtx = context.Background()

// Init sets the process's lifetime ctx.
func Init(ctx context.Context) { processCtx = ctx }

// healthChecker answers whether the control plane is healthy.
type healthChecker interface {
	Check(ctx context.Context) error
}

// memHealth answers from the last state the components reported.
type memHealth struct {
	mu     sync.Mutex
	failed map[string]error
	log    *telemetry.Logger
}

func (h *memHealth) Check(ctx context.Context) error {
	h.mu.Lock()
	defer h.mu.Unlock()
	for comp, err := range h.failed {
		h.log.Debug(ctx, "unhealthy component", "component", comp)
		return fmt.Errorf("%s: %w", comp, err)
	}
	return nil
}

// Service implements adminv1connect.AdminServiceHandler.
type Service struct {
	ctx     context.Context // the admin server's lifetime
	store   *store.Store
	cache   *xds.SnapshotCache
	xds     *xds.Server
	agents  *clientx.Pool
	health  healthChecker
	loggers map[string]*telemetry.Logger
	log     *telemetry.Logger
	version string
	commit  string
}

// NewService returns the admin service; ctx is its lifetime.
func NewService(ctx context.Context, st *store.Store, cache *xds.SnapshotCache, x *xds.Server, loggers map[string]*telemetry.Logger, version, commit string) *Service {
	log := telemetry.NewLogger("admin")
	return &Service{
		ctx: ctx, store: st, cache: cache, xds: x,
		agents:  clientx.NewPool(),
		health:  &memHealth{failed: map[string]error{}, log: log},
		loggers: loggers, log: log, version: version, commit: commit,
	}
}

func (s *Service) DumpConfig(ctx context.Context, req *connect.Request[adminv1.DumpConfigRequest]) (*connect.Response[adminv1.DumpConfigResponse], error) {
	items, rev, err := s.store.List(ctx, req.Msg.GetNodeId(), "")
	if err != nil {
		return nil, connect.NewError(connect.CodeInternal, fmt.Errorf("dump config: %w", err)) // BUG: statusmask — a deadline from the store read becomes CodeInternal
	}
	var buf []byte
	for _, it := range items {
		buf = append(buf, it.Spec...)
		buf = append(buf, '\n')
	}
	return connect.NewResponse(&adminv1.DumpConfigResponse{Config: buf, Version: strconv.FormatInt(rev, 10)}), nil
}

func (s *Service) GetVersion(ctx context.Context, req *connect.Request[adminv1.GetVersionRequest]) (*connect.Response[adminv1.GetVersionResponse], error) {
	if err := s.health.Check(s.ctx); err != nil { // OK: ctxflow — the only health checker the field holds answers from memory and only logs with the ctx
		return nil, connect.NewError(connect.CodeUnavailable, err) // OK: statusmask — the health check was given the server's ctx, not the request's, and does no work with it
	}
	slog.InfoContext(context.TODO(), "version requested", "peer", req.Peer().Addr) // OK: ctxbackground — a root used only to log with
	return connect.NewResponse(&adminv1.GetVersionResponse{Version: s.version, Commit: s.commit}), nil
}

func (s *Service) SetLogLevel(ctx context.Context, req *connect.Request[adminv1.SetLogLevelRequest]) (*connect.Response[adminv1.SetLogLevelResponse], error) {
	lv, err := telemetry.ParseLevel(req.Msg.GetLevel())
	if err != nil {
		return nil, connect.NewError(connect.CodeInvalidArgument, fmt.Errorf("level: %w", err)) // OK: statusmask — ParseLevel takes no ctx: its error is no deadline
	}
	l, ok := s.loggers[req.Msg.GetComponent()]
	if !ok {
		return nil, connect.NewError(connect.CodeNotFound, fmt.Errorf("no component %q", req.Msg.GetComponent()))
	}
	l.SetLevel(lv)
	// TODO(ops): decide whether the persisted level has to survive the caller going away
	go s.persistLevel(context.WithoutCancel(ctx), req.Msg.GetComponent(), req.Msg.GetLevel())
	// ^BUG: detach — a TODO is no reason, and nothing bounds the write
	return connect.NewResponse(&adminv1.SetLogLevelResponse{}), nil
}

func (s *Service) persistLevel(ctx context.Context, component, level string) {
	key := store.Key{Mesh: "system", Type: "LogLevel", Name: component}
	cur, err := s.store.Get(ctx, key)
	if err != nil {
		_, _ = s.store.Create(ctx, store.Resource{Key: key, Spec: []byte(level)})
		return
	}
	cur.Spec = []byte(level)
	_, _ = s.store.Update(ctx, cur)
}

func (s *Service) Drain(ctx context.Context, req *connect.Request[adminv1.DrainRequest]) (*connect.Response[adminv1.DrainResponse], error) {
	node := req.Msg.GetNodeId()
	marker := store.Resource{Key: store.Key{Mesh: "system", Type: "Drain", Name: node}, Spec: []byte(strconv.FormatInt(req.Msg.GetGraceSeconds(), 10))}
	if _, err := s.store.Create(processCtx, marker); err != nil { // BUG: ctxflow — a package-level process ctx: the write ignores the caller's deadline
		return nil, connect.NewError(connect.CodeAborted, err) // OK: statusmask — the write was made with the process ctx, not the request's (that is ctxflow's finding)
	}
	s.xds.StopRebuild(node)
	conn, err := s.agents.Get(s.ctx, node+":15010") // OK: ctxflow — the pool only dials with the ctx and keeps the connection for later calls
	if err != nil {
		return nil, connect.NewError(connect.CodeUnavailable, err) // OK: statusmask — the dial was made with the server's ctx, not the request's
	}
	agent := discoveryv1.NewAggregatedDiscoveryServiceClient(conn)
	grace := time.Duration(req.Msg.GetGraceSeconds()) * time.Second
	deadline := time.Now().Add(grace)
	closed := int32(0)
	for time.Now().Before(deadline) {
		if err := ctx.Err(); err != nil {
			return nil, connect.NewError(connect.CodeOf(err), err)
		}
		resp, err := agent.FetchResources(ctx, &discoveryv1.DiscoveryRequest{TypeUrl: "type.mesh/Listener", Node: &discoveryv1.Node{Id: node}}) // OK: missingdeadline — request scope: the call inherits the admin caller's deadline
		if err == nil && len(resp.GetResources()) == 0 {
			closed = 1
			break
		}
		time.Sleep(500 * time.Millisecond) // OK: ctxless — every turn checks ctx.Err() before it sleeps
	}
	return connect.NewResponse(&adminv1.DrainResponse{StreamsClosed: closed}), nil
}
