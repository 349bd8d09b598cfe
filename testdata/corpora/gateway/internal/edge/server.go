// Package edge implements edge.v1.EdgeService, the control-plane API of the
// gateway fleet.
package edge

import (
	"context"
	"database/sql"
	"fmt"
	"log"
	"net"
	"time"

	accountsv1connect "example.test/gateway/gen/accounts/v1/accountsv1connect"
	authzv1 "example.test/gateway/gen/authz/v1"
	edgev1 "example.test/gateway/gen/edge/v1"
	"example.test/gateway/internal/accesslog"
	"example.test/gateway/internal/nodes"
	"example.test/gateway/internal/platform/kv"
	"example.test/gateway/internal/purge"
	"example.test/gateway/internal/routestore"
)

// Config tunes the server.
type Config struct {
	NodeName      string
	PollInterval  time.Duration
	DialTimeout   time.Duration
	FlushTimeout  time.Duration
	WarmupTimeout time.Duration
	CompactEvery  time.Duration
	AllowedPorts  []string
}

// Deps are the server's collaborators.
type Deps struct {
	DB       *sql.DB
	Routes   *routestore.Store
	Nodes    *nodes.Registry
	Purger   *purge.Purger
	Logs     *accesslog.Writer
	KV       *kv.Client
	Authz    authzv1.AuthzServiceClient
	Accounts accountsv1connect.AccountsServiceClient
	Resolver *net.Resolver
}

// Server implements edgev1.EdgeServiceServer.
type Server struct {
	edgev1.UnimplementedEdgeServiceServer

	cfg      Config
	db       *sql.DB
	routes   *routestore.Store
	nodes    *nodes.Registry
	purger   *purge.Purger
	logs     *accesslog.Writer
	kv       *kv.Client
	authz    authzv1.AuthzServiceClient
	accounts accountsv1connect.AccountsServiceClient
	resolver *net.Resolver

	lifetime context.Context
	stop     context.CancelFunc
	done     chan struct{}
}

// NewServer builds the server and warms the route table.
func NewServer(cfg Config, d Deps) (*Server, error) {
	lifetime, stop := context.WithCancel(context.Background()) // OK
	s := &Server{
		cfg: cfg, db: d.DB, routes: d.Routes, nodes: d.Nodes, purger: d.Purger, logs: d.Logs, kv: d.KV,
		authz: d.Authz, accounts: d.Accounts, resolver: d.Resolver,
		lifetime: lifetime, stop: stop, done: make(chan struct{}),
	}
	wctx, cancel := context.WithTimeout(context.Background(), cfg.WarmupTimeout) // OK
	defer cancel()
	if err := s.routes.Warm(wctx); err != nil {
		stop()
		return nil, fmt.Errorf("edge: warm route table: %w", err)
	}
	return s, nil
}

// Start runs the server's background work until Close.
func (s *Server) Start() {
	go s.compactLoop()
}

func (s *Server) compactLoop() {
	defer close(s.done)
	t := time.NewTicker(s.cfg.CompactEvery)
	defer t.Stop()
	for {
		select {
		case <-s.lifetime.Done():
			return
		case <-t.C:
		}
		n, err := s.routes.Compact(s.lifetime, 10000) // OK
		if err != nil {
			log.Printf("edge: compact routes: %v", err)
			continue
		}
		if n > 0 {
			log.Printf("edge: compacted %d route tombstones", n)
		}
	}
}

// Close stops background work and flushes the access log writer.
func (s *Server) Close() error {
	s.stop()
	<-s.done
	ctx, cancel := context.WithTimeout(context.Background(), s.cfg.FlushTimeout) // OK
	defer cancel()
	return s.logs.Flush(ctx)
}

// bgctx is the context for work that belongs to the node rather than to a call.
func (s *Server) bgctx() context.Context { return s.lifetime }

func toProto(r *routestore.Route) *edgev1.Route {
	return &edgev1.Route{Id: r.ID, Host: r.Host, PathPrefix: r.PathPrefix, Upstream: r.Upstream, Weight: r.Weight, Revision: r.Revision}
}
