// Package admin is the connect-go admin API used by tctl and the migration
// tool: tenants, overrides, flushes, deletions and format migrations.
package admin

import (
	"bytes"
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"hash/crc32"
	"net/http"
	"sync"
	"time"

	"connectrpc.com/connect"

	"example.test/telemetry/gen/adminpb"
	"example.test/telemetry/gen/adminpb/adminpbconnect"
	"example.test/telemetry/gen/ingesterpb"
	"example.test/telemetry/pkg/compactor"
	"example.test/telemetry/pkg/services"
	"example.test/telemetry/pkg/storage/blockstore"
	"example.test/telemetry/pkg/tenant"
	"example.test/telemetry/pkg/util/log"
	"example.test/telemetry/pkg/util/tracing"
)

// Config configures the admin API.
type Config struct {
	RuntimeConfigURL string
	SweepTimeout     time.Duration
}

// Server implements adminpbconnect.AdminServiceHandler.
type Server struct {
	cfg       Config
	db        *sql.DB
	ingester  ingesterpb.IngesterClient
	compactor *compactor.Compactor
	store     *blockstore.Store
	audit     *AuditLog

	versionOnce sync.Once
	version     string

	ctx     context.Context
	cancel  context.CancelFunc
	mu      sync.Mutex
	workers map[string]context.CancelFunc
	jobs    chan func()
}

// New returns the admin server.
func New(cfg Config, db *sql.DB, ing ingesterpb.IngesterClient, comp *compactor.Compactor, store *blockstore.Store) *Server {
	s := &Server{cfg: cfg, db: db, ingester: ing, compactor: comp, store: store, audit: &AuditLog{db: db}, workers: map[string]context.CancelFunc{}, jobs: make(chan func(), 64)}
	for n := 0; n < 2; n++ {
		go s.runJobs()
	}
	s.ctx, s.cancel = context.WithCancel(context.Background()) // OK: ctxbackground — constructor: the admin server's lifetime
	return s
}

// Handler returns the connect handler to mount.
func (s *Server) Handler() (string, http.Handler) { return adminpbconnect.NewAdminServiceHandler(s) }

// Close stops the background sweeps and the job workers.
func (s *Server) Close() error {
	s.cancel()
	close(s.jobs)
	return nil
}

// runJobs runs queued maintenance jobs, one at a time, after the requests
// that queued them.
func (s *Server) runJobs() {
	for job := range s.jobs {
		job()
	}
}

// connectCode picks the connect code for an error of the database.
func connectCode(err error) connect.Code {
	switch {
	case errors.Is(err, context.DeadlineExceeded):
		return connect.CodeDeadlineExceeded
	case errors.Is(err, context.Canceled):
		return connect.CodeCanceled
	case errors.Is(err, sql.ErrNoRows):
		return connect.CodeNotFound
	}
	return connect.CodeInternal
}

func (s *Server) loadVersion(ctx context.Context) string {
	var v string
	if err := s.db.QueryRowContext(ctx, "SELECT version FROM schema_migrations ORDER BY version DESC LIMIT 1").Scan(&v); err != nil {
		return "unknown"
	}
	return v
}

// Ping implements adminpbconnect.AdminServiceHandler.
func (s *Server) Ping(ctx context.Context, _ *connect.Request[adminpb.PingRequest]) (*connect.Response[adminpb.PingResponse], error) {
	s.versionOnce.Do(func() { s.version = s.loadVersion(context.Background()) }) // OK: ctxbackground — one-time initialisation under sync.Once
	return connect.NewResponse(&adminpb.PingResponse{Version: s.version}), nil
}

// ListTenants implements adminpbconnect.AdminServiceHandler.
func (s *Server) ListTenants(ctx context.Context, _ *connect.Request[adminpb.ListTenantsRequest]) (*connect.Response[adminpb.ListTenantsResponse], error) {
	rows, err := s.db.QueryContext(ctx, "SELECT id, ingestion_rate, max_traces, retention_hours FROM tenants ORDER BY id") // OK: ctxless — the ctx-aware QueryContext
	if err != nil {
		return nil, connect.NewError(connectCode(err), fmt.Errorf("list tenants: %w", err)) // OK: statusmask — the code comes from the module's mapping helper
	}
	defer rows.Close()
	resp := &adminpb.ListTenantsResponse{}
	for rows.Next() {
		t := &adminpb.Tenant{}
		if err := rows.Scan(&t.Id, &t.IngestionRate, &t.MaxTraces, &t.RetentionHours); err != nil {
			return nil, connect.NewError(connect.CodeInternal, err) // OK: statusmask — Scan takes no ctx
		}
		resp.Tenants = append(resp.Tenants, t)
	}
	return connect.NewResponse(resp), nil
}

// GetOverrides implements adminpbconnect.AdminServiceHandler: it answers from
// the runtime-config endpoint, the source of truth the limits reload from.
func (s *Server) GetOverrides(ctx context.Context, req *connect.Request[adminpb.GetOverridesRequest]) (*connect.Response[adminpb.Tenant], error) {
	resp, err := http.Get(s.cfg.RuntimeConfigURL) // BUG: ctxless — http.Get cannot carry the request's deadline (NewRequestWithContext can)
	if err != nil {
		return nil, connect.NewError(connect.CodeUnavailable, err) // OK: statusmask — http.Get is given no ctx
	}
	defer resp.Body.Close()
	var all map[string]struct {
		IngestionRate  int64 `json:"ingestion_rate_bytes"`
		MaxTraces      int64 `json:"max_traces_per_user"`
		RetentionHours int64 `json:"retention_hours"`
	}
	if err := json.NewDecoder(resp.Body).Decode(&all); err != nil {
		return nil, connect.NewError(connect.CodeInternal, err)
	}
	o, ok := all[req.Msg.GetTenant()]
	if !ok {
		return nil, connect.NewError(connect.CodeNotFound, fmt.Errorf("no overrides for %q", req.Msg.GetTenant()))
	}
	return connect.NewResponse(&adminpb.Tenant{Id: req.Msg.GetTenant(), IngestionRate: o.IngestionRate, MaxTraces: o.MaxTraces, RetentionHours: o.RetentionHours}), nil
}

// SetOverrides implements adminpbconnect.AdminServiceHandler.
func (s *Server) SetOverrides(ctx context.Context, req *connect.Request[adminpb.SetOverridesRequest]) (*connect.Response[adminpb.Tenant], error) {
	t := req.Msg.GetTenant()
	if t.GetId() == "" {
		return nil, connect.NewError(connect.CodeInvalidArgument, errors.New("tenant id required"))
	}
	var prev adminpb.Tenant
	if err := s.db.QueryRowContext(ctx, "SELECT ingestion_rate, max_traces, retention_hours FROM tenants WHERE id=$1", t.GetId()).Scan(&prev.IngestionRate, &prev.MaxTraces, &prev.RetentionHours); err != nil {
		return nil, connect.NewError(connectCode(err), err)
	}
	_, err := s.db.ExecContext(ctx, "UPDATE tenants SET ingestion_rate=$2, max_traces=$3, retention_hours=$4 WHERE id=$1", t.GetId(), t.GetIngestionRate(), t.GetMaxTraces(), t.GetRetentionHours()) // OK: ctxless — ExecContext carries the deadline
	if err != nil {
		if ctx.Err() != nil {
			return nil, connect.NewError(connectCode(ctx.Err()), ctx.Err())
		}
		return nil, connect.NewError(connect.CodeInternal, fmt.Errorf("update overrides: %w", err)) // OK: statusmask — ctx.Err() is checked first
	}
	if err := s.publishOverrides(ctx, t); err != nil {
		// Undo the row so the database and the runtime config agree; our own
		// budget, since the caller's may be what ran out.
		uctx, cancel := context.WithTimeout(context.Background(), 5*time.Second) // OK: ctxbackground — bounded undo on the way out of a failure the handler returns
		defer cancel()
		if _, uerr := s.db.ExecContext(uctx, "UPDATE tenants SET ingestion_rate=$2, max_traces=$3, retention_hours=$4 WHERE id=$1", t.GetId(), prev.IngestionRate, prev.MaxTraces, prev.RetentionHours); uerr != nil {
			log.Error(ctx, "undoing overrides", "org", t.GetId(), "err", uerr)
		}
		return nil, connect.NewError(connectCode(err), fmt.Errorf("publish overrides: %w", err)) // OK: statusmask — the code comes from the module's mapping helper
	}
	entry := AuditEntry{Who: tenant.ID(ctx), What: "set-overrides", Tenant: t.GetId(), At: time.Now()}
	_ = s.audit.Write(context.WithoutCancel(ctx), entry)
	// ^BUG: detach — detached audit write with neither a bound nor a reason
	return connect.NewResponse(t), nil
}

// publishOverrides pushes the tenant's overrides to the runtime-config service.
func (s *Server) publishOverrides(ctx context.Context, t *adminpb.Tenant) error {
	body, err := json.Marshal(map[string]any{"tenant": t.GetId(), "ingestion_rate_bytes": t.GetIngestionRate(), "max_traces_per_user": t.GetMaxTraces(), "retention_hours": t.GetRetentionHours()})
	if err != nil {
		return err
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPut, s.cfg.RuntimeConfigURL, bytes.NewReader(body))
	if err != nil {
		return err
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	if resp.StatusCode/100 != 2 {
		return fmt.Errorf("runtime config: %s", resp.Status)
	}
	return nil
}

// FlushTenant implements adminpbconnect.AdminServiceHandler.
func (s *Server) FlushTenant(ctx context.Context, req *connect.Request[adminpb.FlushTenantRequest]) (*connect.Response[adminpb.FlushTenantResponse], error) {
	org := req.Msg.GetTenant()
	log.Info(ctx, "flush requested", "org", org)
	resp, err := s.ingester.Flush(services.Context(), &ingesterpb.FlushRequest{Tenant: org}) // BUG: ctxflow — services.Context() is the process lifetime, not the request
	if err != nil {
		return nil, connect.NewError(connect.CodeUnavailable, err) // OK: statusmask — the call was given the process lifetime ctx, not the request's
	}
	return connect.NewResponse(&adminpb.FlushTenantResponse{Blocks: resp.GetFlushedBlocks()}), nil
}

// DeleteTenant implements adminpbconnect.AdminServiceHandler: it deletes the
// tenant's blocks now and sweeps its leftovers in the background.
func (s *Server) DeleteTenant(ctx context.Context, req *connect.Request[adminpb.DeleteTenantRequest]) (*connect.Response[adminpb.DeleteTenantResponse], error) {
	org := req.Msg.GetTenant()
	n, err := s.compactor.DeleteTenantBlocks(ctx, org)
	if err != nil {
		return nil, connect.NewError(connect.CodeInternal, fmt.Errorf("delete blocks of %s: %w", org, err)) // BUG: statusmask — a deadline of the store-gateway calls comes back as Internal
	}
	_ = s.audit.Write(auditContext(ctx), AuditEntry{Who: tenant.ID(ctx), What: "delete-tenant", Tenant: org, At: time.Now()})

	s.mu.Lock()
	if stop, ok := s.workers[org]; ok {
		stop()
	}
	wctx, cancel := context.WithCancel(s.ctx) // OK: ctxflow — child of the lifetime ctx whose cancel the server keeps by tenant
	s.workers[org] = cancel
	s.mu.Unlock()
	s.jobs <- func() {
		_ = s.store.DeleteBlock(context.Background(), org, "index") // OK?: ctxbackground — a closure made in the handler (a request scope by the letter) but run by a worker pool after the request
	}
	go s.sweepTombstones(wctx, org) // OK: ctxflow — the worker ctx is a child of the lifetime ctx whose cancel the server keeps by tenant
	return connect.NewResponse(&adminpb.DeleteTenantResponse{Blocks: n}), nil
}

// sweepTombstones removes what a deletion left behind, a tenant at a time.
func (s *Server) sweepTombstones(ctx context.Context, org string) {
	defer func() {
		s.mu.Lock()
		delete(s.workers, org)
		s.mu.Unlock()
	}()
	ctx, cancel := context.WithTimeout(ctx, s.cfg.SweepTimeout)
	defer cancel()
	for _, id := range []string{"tombstones", "bloom"} {
		if err := s.store.DeleteBlock(ctx, org, id); err != nil {
			log.Warn(ctx, "sweep failed", "org", org, "err", err)
			return
		}
	}
}

// MigrateTenant implements adminpbconnect.AdminServiceHandler.
func (s *Server) MigrateTenant(ctx context.Context, req *connect.Request[adminpb.MigrateTenantRequest]) (*connect.Response[adminpb.MigrateTenantResponse], error) {
	org := req.Msg.GetTenant()
	lockKey := int64(crc32.ChecksumIEEE([]byte("migrate/" + org)))
	if _, err := s.db.ExecContext(ctx, "SELECT pg_advisory_lock($1)", lockKey); err != nil {
		return nil, connect.NewError(connectCode(err), err)
	}
	defer func() {
		uctx, cancel := context.WithTimeout(context.Background(), 5*time.Second) // OK: ctxbackground — deferred unlock with a bounded fresh budget
		defer cancel()
		_, _ = s.db.ExecContext(uctx, "SELECT pg_advisory_unlock($1)", lockKey)
	}()
	lctx := tracing.CopyTraceContext(context.Background(), ctx) // OK: ctxbackground — root only carries the trace for the log line below
	log.Info(lctx, "migration requested", "org", org, "from", req.Msg.GetFromVersion(), "to", req.Msg.GetToVersion())
	// A rewrite takes minutes; keep the tenant and trace but not the caller's
	// deadline.
	bg := tenant.With(tracing.WithTraceID(context.Background(), tracing.TraceID(ctx)), org) // BUG: ctxbackground — a hand-made detach inline in the handler is a root, and the rewrite runs on it
	n, err := s.compactor.RewriteTenant(bg, org, req.Msg.GetFromVersion(), req.Msg.GetToVersion())
	if err != nil {
		return nil, connect.NewError(connect.CodeInternal, err) // OK: statusmask — error of a call made with a fresh root
	}
	return connect.NewResponse(&adminpb.MigrateTenantResponse{RewrittenBlocks: n}), nil
}
