// Package admin serves the operator API over connect-go.
package admin

import (
	"context"
	"fmt"
	"time"

	"connectrpc.com/connect"
	"example.test/buildcache/gen/adminv1"
	"example.test/buildcache/gen/adminv1/adminv1connect"
	"example.test/buildcache/internal/cas"
	"example.test/buildcache/internal/exec"
	"example.test/buildcache/internal/gc"
	"example.test/buildcache/internal/obs"
)

// Service implements AdminServiceHandler.
type Service struct {
	index     *cas.Index
	ops       *exec.OpTable
	lru       *gc.LRU
	tenantCtx map[string]context.Context
}

var _ adminv1connect.AdminServiceHandler = (*Service)(nil)

// New returns the admin service; tenants maps each instance to its lifetime ctx.
func New(ix *cas.Index, ops *exec.OpTable, lru *gc.LRU, tenants map[string]context.Context) *Service {
	return &Service{index: ix, ops: ops, lru: lru, tenantCtx: tenants}
}

func (s *Service) Stats(ctx context.Context, req *connect.Request[adminv1.StatsRequest]) (*connect.Response[adminv1.StatsResponse], error) {
	obs.Log.Info(context.TODO(), "stats", "instance", req.Msg.GetInstance()) // OK: ctxbackground — log only
	n, err := s.index.Usage(context.TODO(), req.Msg.GetInstance()) // BUG: ctxbackground — the usage query runs on a fresh root
	if err != nil {
		return nil, connect.NewError(connect.CodeInternal, err) // OK: statusmask — the query ran on a fresh root
	}
	ops := s.ops.Count(ctx)
	return connect.NewResponse(&adminv1.StatsResponse{Bytes: n, Operations: ops}), nil
}

func (s *Service) Evict(ctx context.Context, req *connect.Request[adminv1.EvictRequest]) (*connect.Response[adminv1.EvictResponse], error) {
	tctx := s.tenantCtx[req.Msg.GetInstance()]
	if tctx == nil {
		return nil, connect.NewError(connect.CodeNotFound, fmt.Errorf("no instance %q", req.Msg.GetInstance()))
	}
	freed, err := s.lru.EvictTo(tctx, req.Msg.GetTargetBytes()) // BUG: ctxflow — per-tenant ctx filled at start-up outlives the request
	if err != nil {
		return nil, connect.NewError(connect.CodeInternal, fmt.Errorf("evict: %w", err)) // OK: statusmask — the call had the tenant's ctx, not the request's
	}
	return connect.NewResponse(&adminv1.EvictResponse{Freed: freed}), nil
}

func (s *Service) Drain(ctx context.Context, req *connect.Request[adminv1.DrainRequest]) (*connect.Response[adminv1.DrainResponse], error) {
	if err := s.ops.DrainBot(ctx, req.Msg.GetBotId()); err != nil {
		return nil, connect.NewError(connect.CodeUnavailable, fmt.Errorf("drain %s: %w", req.Msg.GetBotId(), err)) // BUG: statusmask — a deadline of the drain becomes Unavailable
	}
	// The drain is recorded even if the operator's client disconnects.
	actx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 3*time.Second) // OK: detach — reason and bound
	defer cancel()
	_ = s.ops.DrainBot(actx, "")
	return connect.NewResponse(&adminv1.DrainResponse{}), nil
}
