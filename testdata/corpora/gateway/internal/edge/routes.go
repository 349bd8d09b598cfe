package edge

import (
	"context"
	"encoding/json"
	"errors"
	"log"
	"net"
	"os/exec"
	"strings"
	"time"

	"connectrpc.com/connect"
	"golang.org/x/sync/errgroup"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	accountsv1 "example.test/gateway/gen/accounts/v1"
	authzv1 "example.test/gateway/gen/authz/v1"
	edgev1 "example.test/gateway/gen/edge/v1"
	"example.test/gateway/internal/authn"
	"example.test/gateway/internal/middleware"
	"example.test/gateway/internal/routestore"
)

func routeKey(id string) string { return "route:" + id }

// GetRoute returns one route, from the cache sidecar unless a refresh is asked for.
func (s *Server) GetRoute(ctx context.Context, req *edgev1.GetRouteRequest) (*edgev1.Route, error) {
	if req.GetId() == "" {
		return nil, status.Error(codes.InvalidArgument, "id is required")
	}
	if !req.GetRefresh() {
		if raw, err := middleware.Cached(ctx, s.kv, routeKey(req.GetId())); err == nil { // OK
			var r edgev1.Route
			if json.Unmarshal(raw, &r) == nil {
				return &r, nil
			}
		}
	}
	lctx := ctx
	if req.GetRefresh() {
		lctx = context.Background() // BUG: ctxbackground
	}
	r, err := s.routes.Get(lctx, req.GetId())
	if errors.Is(err, routestore.ErrNotFound) {
		return nil, status.Errorf(codes.NotFound, "route %s not found", req.GetId())
	}
	if err != nil {
		return nil, status.Errorf(codes.Internal, "load route: %v", err)
	}
	out := toProto(r)
	if raw, err := json.Marshal(out); err == nil {
		if err := s.kv.SetContext(lctx, routeKey(r.ID), raw, 5*time.Minute); err != nil {
			log.Printf("edge: cache route %s: %v", r.ID, err)
		}
	}
	return out, nil
}

// ListRoutes pages through the route table. Host-scoped listings still read the
// legacy table, which has the host index.
func (s *Server) ListRoutes(ctx context.Context, req *edgev1.ListRoutesRequest) (*edgev1.ListRoutesResponse, error) {
	size := int(req.GetPageSize())
	if size <= 0 || size > 500 {
		size = 100
	}
	if req.GetHost() == "" {
		rs, next, err := s.routes.List(ctx, size, req.GetPageToken()) // OK
		if err != nil {
			return nil, status.Errorf(codes.Internal, "list routes: %v", err)
		}
		resp := &edgev1.ListRoutesResponse{NextPageToken: next}
		for _, r := range rs {
			resp.Routes = append(resp.Routes, toProto(r))
		}
		return resp, nil
	}
	rows, err := s.db.Query(`SELECT id, host, path_prefix, upstream, weight, revision FROM legacy_routes WHERE host = $1 AND id > $2 ORDER BY id LIMIT $3`, req.GetHost(), req.GetPageToken(), size) // BUG: ctxless
	if err != nil {
		return nil, status.Errorf(codes.Internal, "list routes for %s: %v", req.GetHost(), err)
	}
	defer rows.Close()
	resp := &edgev1.ListRoutesResponse{}
	for rows.Next() {
		var r edgev1.Route
		if err := rows.Scan(&r.Id, &r.Host, &r.PathPrefix, &r.Upstream, &r.Weight, &r.Revision); err != nil {
			return nil, status.Errorf(codes.Internal, "scan route: %v", err)
		}
		resp.Routes = append(resp.Routes, &r)
	}
	if len(resp.Routes) == size {
		resp.NextPageToken = resp.Routes[size-1].Id
	}
	return resp, rows.Err()
}

// PurgeCache drops cached responses under a prefix. The purge itself runs in
// the background; the response says how many entries it is going to remove.
func (s *Server) PurgeCache(ctx context.Context, req *edgev1.PurgeCacheRequest) (*edgev1.PurgeCacheResponse, error) {
	prefix := strings.TrimSpace(req.GetPrefix())
	if prefix == "" {
		return nil, status.Error(codes.InvalidArgument, "prefix is required")
	}
	if !authn.PrincipalFrom(ctx).HasScope("cache:purge") {
		return nil, status.Error(codes.PermissionDenied, "cache:purge scope required")
	}
	n, err := s.purger.Count(ctx, prefix) // OK
	if err != nil {
		return nil, status.Errorf(codes.Internal, "count cached entries: %v", err)
	}
	go s.purger.Purge(context.Background(), prefix) // BUG: ctxbackground
	if req.GetReloadProxy() {
		if out, err := exec.Command("/usr/sbin/nginx", "-s", "reload").CombinedOutput(); err != nil { // BUG: ctxless
			return nil, status.Errorf(codes.Internal, "reload proxy: %v: %s", err, out)
		}
	}
	return &edgev1.PurgeCacheResponse{Purged: n}, nil
}

// DrainNode moves a node's connections to its peers.
func (s *Server) DrainNode(ctx context.Context, req *edgev1.DrainNodeRequest) (*edgev1.DrainNodeResponse, error) {
	if !authn.PrincipalFrom(ctx).HasScope("fleet:drain") {
		return nil, status.Error(codes.PermissionDenied, "fleet:drain scope required")
	}
	grace := time.Duration(req.GetGraceSeconds()) * time.Second
	if grace <= 0 {
		grace = 30 * time.Second
	}
	moved, err := s.nodes.Drain(s.lifetime, req.GetNode(), grace) // BUG: ctxflow
	if err != nil {
		return nil, status.Errorf(codes.Unavailable, "drain %s: %v", req.GetNode(), err)
	}
	return &edgev1.DrainNodeResponse{ConnectionsMoved: moved}, nil
}

// ResolveUpstream resolves every host of an upstream group, in parallel.
func (s *Server) ResolveUpstream(ctx context.Context, req *edgev1.ResolveUpstreamRequest) (*edgev1.ResolveUpstreamResponse, error) {
	u, err := s.routes.Upstream(ctx, req.GetUpstream()) // OK
	if errors.Is(err, routestore.ErrNotFound) {
		return nil, status.Errorf(codes.NotFound, "upstream %s not found", req.GetUpstream())
	}
	if err != nil {
		return nil, status.Errorf(codes.Internal, "load upstream: %v", err)
	}
	addrs := make([][]string, len(u.Hosts))
	g, gctx := errgroup.WithContext(ctx) // OK
	for i, h := range u.Hosts {
		g.Go(func() error {
			var err error
			if u.Resolver == "system" {
				addrs[i], err = net.LookupHost(h) // BUG: ctxless
			} else {
				addrs[i], err = s.resolver.LookupHost(gctx, h) // OK
			}
			return err
		})
	}
	if err := g.Wait(); err != nil {
		return nil, status.Errorf(codes.Unavailable, "resolve %s: %v", u.Name, err)
	}
	resp := &edgev1.ResolveUpstreamResponse{Resolver: u.Resolver}
	for _, a := range addrs {
		resp.Addrs = append(resp.Addrs, a...)
	}
	return resp, nil
}

// Ping answers liveness probes; "deep" pings also check the upstreams the
// gateway depends on.
func (s *Server) Ping(ctx context.Context, req *edgev1.PingRequest) (*edgev1.PingResponse, error) {
	if req.GetPayload() == "deep" {
		if _, err := s.authz.Check(ctx, &authzv1.CheckRequest{Subject: "edge:ping", Action: "ping", Resource: "edge"}); err != nil { // OK
			return nil, status.Errorf(codes.Unavailable, "authz: %v", err)
		}
		if _, err := s.accounts.GetAccount(ctx, connect.NewRequest(&accountsv1.GetAccountRequest{Id: "ping"})); err != nil && connect.CodeOf(err) != connect.CodeNotFound { // OK
			return nil, status.Errorf(codes.Unavailable, "accounts: %v", err)
		}
	}
	return &edgev1.PingResponse{Payload: req.GetPayload(), Node: s.cfg.NodeName}, nil
}
