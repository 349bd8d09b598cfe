// Package admin is the connect-go admin service.
package admin

import (
	"context"
	"database/sql"
	"fmt"

	"connectrpc.com/connect"

	adminv1 "example.test/workflow/gen/admin/v1"
	"example.test/workflow/gen/admin/v1/adminv1connect"
	"example.test/workflow/internal/history"
	"example.test/workflow/internal/persistence"
)

var _ adminv1connect.AdminServiceHandler = (*Server)(nil)

// Membership lists cluster members from gossip state.
type Membership struct{ members []string }

// Members returns the current members; it answers from memory.
func (m *Membership) Members(ctx context.Context) []string { return m.members }

// Server implements the admin service.
type Server struct {
	baseCtx    context.Context
	store      *persistence.Store
	db         *sql.DB
	shards     *history.ShardController
	membership *Membership
}

// New makes the server.
func New(ctx context.Context, store *persistence.Store, shards *history.ShardController) *Server {
	return &Server{baseCtx: ctx, store: store, db: store.DB(), shards: shards, membership: &Membership{}}
}

// DescribeCluster describes the cluster.
func (s *Server) DescribeCluster(ctx context.Context, req *connect.Request[adminv1.DescribeClusterRequest]) (*connect.Response[adminv1.DescribeClusterResponse], error) {
	id, err := s.store.ClusterID(ctx)
	if err != nil {
		return nil, connect.NewError(connect.CodeInternal, err) // OK?: statusmask — the cause is err itself, no message built from it; the catalogue now says the error passed as it is is translated too (the client sees Internal), and ClusterID's query runs once with the first caller's ctx
	}
	members := s.membership.Members(context.TODO()) // OK: ctxbackground — the callee never refers to its ctx
	return connect.NewResponse(&adminv1.DescribeClusterResponse{ClusterId: id, Members: members}), nil
}

// CloseShard releases a shard from this host.
func (s *Server) CloseShard(ctx context.Context, req *connect.Request[adminv1.CloseShardRequest]) (*connect.Response[adminv1.CloseShardResponse], error) {
	if err := s.shards.CloseShard(ctx, req.Msg.GetShardId()); err != nil {
		return nil, connect.NewError(connect.CodeInternal, fmt.Errorf("close shard %d: %v", req.Msg.GetShardId(), err)) // BUG: statusmask — the release's deadline becomes Internal
	}
	return connect.NewResponse(&adminv1.CloseShardResponse{}), nil
}

// RebuildIndex rebuilds a namespace's visibility index.
func (s *Server) RebuildIndex(ctx context.Context, req *connect.Request[adminv1.RebuildIndexRequest]) (*connect.Response[adminv1.RebuildIndexResponse], error) {
	if _, err := s.db.Exec("ANALYZE visibility"); err != nil { // BUG: ctxless — Exec has ExecContext
		return nil, connect.NewError(connect.CodeInternal, err)
	}
	rows, err := s.store.RebuildIndex(s.baseCtx, req.Msg.GetNamespace()) // BUG: ctxflow — server lifetime ctx for the request's rebuild
	if err != nil {
		return nil, connect.NewError(connect.CodeInternal, fmt.Errorf("rebuild: %w", err)) // OK: statusmask — the call used the server's ctx, not the request's
	}
	return connect.NewResponse(&adminv1.RebuildIndexResponse{Rows: rows}), nil
}
