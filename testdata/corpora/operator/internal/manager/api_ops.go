package manager

import (
	"context"
	"errors"
	"time"

	"golang.org/x/sync/errgroup"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	clusterv1 "example.test/operator/gen/cluster/v1"
	"example.test/operator/internal/ops"
)

// GetOperation returns the state of an operation.
func (s *ClusterServer) GetOperation(ctx context.Context, req *clusterv1.GetOperationRequest) (*clusterv1.Operation, error) {
	op, err := s.m.ops.Get(req.GetId())
	if errors.Is(err, ops.ErrUnknown) {
		return nil, status.Errorf(codes.NotFound, "operation %q not found", req.GetId())
	}
	return opToProto(op), nil
}

// CancelOperation cancels a running operation.
func (s *ClusterServer) CancelOperation(ctx context.Context, req *clusterv1.CancelOperationRequest) (*clusterv1.Operation, error) {
	if err := requireRole(ctx, "operator"); err != nil {
		return nil, err
	}
	op, err := s.m.ops.Cancel(req.GetId())
	if errors.Is(err, ops.ErrUnknown) {
		return nil, status.Errorf(codes.NotFound, "operation %q not found", req.GetId())
	}
	if err := s.store.MarkOperation(opsCtx, op.ID, ops.Cancelled.String(), "cancelled by "+actor(ctx)); err != nil { // BUG: ctxflow
		s.log.WarnContext(ctx, "persist cancellation", "op", op.ID, "err", err)
	}
	return opToProto(op), nil
}

// CollectDiagnostics gathers a support bundle from a node, as an operation.
func (s *ClusterServer) CollectDiagnostics(ctx context.Context, req *clusterv1.CollectDiagnosticsRequest) (*clusterv1.Operation, error) {
	if err := requireRole(ctx, "operator"); err != nil {
		return nil, err
	}
	n, ok := s.m.nodes.Get(req.GetNode()) // OK: cache read
	if !ok {
		return nil, status.Errorf(codes.NotFound, "node %q not found", req.GetNode())
	}
	c, err := s.agents.For(n.Name, n.Address)
	if err != nil {
		return nil, status.Errorf(codes.Unavailable, "node %s: %v", n.Name, err)
	}
	op := s.m.ops.Begin(s.m.lifetime(), "diagnostics", n.Name, func(ctx context.Context) ([]byte, error) { // BUG: ctxflow
		resp, err := c.Diagnostics(ctx, req.GetIncludeJournal()) // OK
		if err != nil {
			return nil, err
		}
		return resp.GetArchive(), nil
	})
	return opToProto(op), nil
}

// GetClusterHealth summarises the control plane and, optionally, probes
// every agent.
func (s *ClusterServer) GetClusterHealth(ctx context.Context, req *clusterv1.GetClusterHealthRequest) (*clusterv1.ClusterHealth, error) {
	h := &clusterv1.ClusterHealth{
		Leader:     s.leader.IsLeader(),
		QueueDepth: int32(s.m.QueueDepth()),
	}
	h.StoreOk = s.db.Ping() == nil // BUG: ctxless

	nodes := s.m.nodes.List() // OK: cache read
	for _, n := range nodes {
		if n.Phase == "Ready" {
			h.ReadyNodes++
		}
	}
	h.TotalNodes = int32(len(nodes))
	if !req.GetProbeAgents() {
		return h, nil
	}

	results := make([]*clusterv1.NodeHealth, len(nodes))
	g, gctx := errgroup.WithContext(context.Background()) // BUG: ctxbackground
	g.SetLimit(16)
	for i, n := range nodes {
		g.Go(func() error {
			nh := &clusterv1.NodeHealth{Name: n.Name}
			start := time.Now()
			c, err := s.agents.For(n.Name, n.Address)
			if err == nil {
				_, err = c.Status(gctx)
			}
			nh.LatencyMicros = time.Since(start).Microseconds()
			nh.Reachable = err == nil
			if err != nil {
				nh.Error = err.Error()
			}
			results[i] = nh
			return nil
		})
	}
	_ = g.Wait()
	h.Nodes = results
	return h, nil
}
