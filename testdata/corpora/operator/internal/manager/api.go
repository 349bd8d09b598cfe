package manager

import (
	"context"
	"database/sql"
	"errors"
	"log/slog"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/types/known/timestamppb"

	clusterv1 "example.test/operator/gen/cluster/v1"
	"example.test/operator/internal/authn"
	"example.test/operator/internal/nodeagent"
	"example.test/operator/internal/ops"
	"example.test/operator/internal/retry"
	"example.test/operator/internal/store"
)

// LeaderStatus reports whether this replica runs the controllers.
type LeaderStatus interface{ IsLeader() bool }

// ClusterServer implements cluster.v1.ClusterService on top of the manager.
type ClusterServer struct {
	clusterv1.UnimplementedClusterServiceServer

	m       *Manager
	store   *store.Store
	db      *sql.DB
	agents  *nodeagent.Pool
	leader  LeaderStatus
	backoff retry.Backoff
	log     *slog.Logger

	watchHeartbeat time.Duration
}

// NewClusterServer returns the API server of m.
func NewClusterServer(m *Manager, db *sql.DB, leader LeaderStatus, log *slog.Logger) *ClusterServer {
	return &ClusterServer{
		m:              m,
		store:          m.store,
		db:             db,
		agents:         m.agents,
		leader:         leader,
		backoff:        retry.Backoff{Initial: 50 * time.Millisecond, Max: time.Second, Steps: 4},
		log:            log,
		watchHeartbeat: 15 * time.Second,
	}
}

// Register registers the service on gs.
func (s *ClusterServer) Register(gs *grpc.Server) {
	clusterv1.RegisterClusterServiceServer(gs, s)
}

// WarmUp blocks until the caches have synced, so that the first requests do
// not all fall through to the store. Called from main before serving.
func (s *ClusterServer) WarmUp(timeout time.Duration) bool {
	ctx, cancel := context.WithTimeout(context.Background(), timeout) // OK: start-up, not a request
	defer cancel()
	return s.m.nodes.WaitForSync(ctx) && s.m.workloads.WaitForSync(ctx) // OK
}

func actor(ctx context.Context) string {
	if p, ok := authn.FromContext(ctx); ok {
		return p.Subject
	}
	return "anonymous"
}

func requireRole(ctx context.Context, role string) error {
	p, ok := authn.FromContext(ctx)
	if !ok || !p.HasRole(role) {
		return status.Errorf(codes.PermissionDenied, "role %q required", role)
	}
	return nil
}

func storeErr(err error) error {
	switch {
	case errors.Is(err, store.ErrNotFound):
		return status.Error(codes.NotFound, "not found")
	case errors.Is(err, store.ErrConflict):
		return status.Error(codes.Aborted, "generation conflict; re-read and retry")
	case errors.Is(err, context.DeadlineExceeded):
		return status.Error(codes.DeadlineExceeded, "store timed out")
	case errors.Is(err, context.Canceled):
		return status.Error(codes.Canceled, "cancelled")
	}
	return status.Errorf(codes.Internal, "store: %v", err)
}

// recordEvent writes an event on behalf of the caller; failures are logged.
func (s *ClusterServer) recordEvent(ctx context.Context, ev store.Event) {
	if err := s.store.RecordEvent(ctx, ev); err != nil {
		s.log.WarnContext(ctx, "record event", "object", ev.Object, "err", err)
	}
}

var nodePhases = map[string]clusterv1.NodePhase{
	"Pending":  clusterv1.NodePhase_NODE_PHASE_PENDING,
	"Ready":    clusterv1.NodePhase_NODE_PHASE_READY,
	"NotReady": clusterv1.NodePhase_NODE_PHASE_NOT_READY,
	"Draining": clusterv1.NodePhase_NODE_PHASE_DRAINING,
}

func nodeToProto(n *store.Node) *clusterv1.Node {
	pb := &clusterv1.Node{
		Name:          n.Name,
		Address:       n.Address,
		Phase:         nodePhases[n.Phase],
		Unschedulable: n.Unschedulable,
		Labels:        n.Labels,
		CpuMillis:     n.CPUMillis,
		MemoryBytes:   n.MemoryBytes,
		AgentVersion:  n.AgentVersion,
	}
	if !n.LastHeartbeat.IsZero() {
		pb.LastHeartbeat = timestamppb.New(n.LastHeartbeat)
	}
	return pb
}

func workloadToProto(w *store.Workload) *clusterv1.Workload {
	return &clusterv1.Workload{
		Name:          w.Name,
		Image:         w.Image,
		Replicas:      w.Replicas,
		NodeSelector:  w.NodeSelector,
		Args:          w.Args,
		Generation:    w.Generation,
		ReadyReplicas: w.ReadyReplicas,
		UpdatedAt:     timestamppb.New(w.UpdatedAt),
	}
}

func workloadFromProto(w *clusterv1.Workload) *store.Workload {
	return &store.Workload{
		Name:         w.GetName(),
		Image:        w.GetImage(),
		Replicas:     w.GetReplicas(),
		NodeSelector: w.GetNodeSelector(),
		Args:         w.GetArgs(),
	}
}

var opStates = map[ops.State]clusterv1.OperationState{
	ops.Running:   clusterv1.OperationState_OPERATION_STATE_RUNNING,
	ops.Succeeded: clusterv1.OperationState_OPERATION_STATE_SUCCEEDED,
	ops.Failed:    clusterv1.OperationState_OPERATION_STATE_FAILED,
	ops.Cancelled: clusterv1.OperationState_OPERATION_STATE_CANCELLED,
}

func opToProto(op ops.Operation) *clusterv1.Operation {
	pb := &clusterv1.Operation{
		Id:        op.ID,
		Kind:      op.Kind,
		Target:    op.Target,
		State:     opStates[op.State],
		Error:     op.Err,
		Result:    op.Result,
		StartedAt: timestamppb.New(op.StartedAt),
	}
	if !op.FinishedAt.IsZero() {
		pb.FinishedAt = timestamppb.New(op.FinishedAt)
	}
	return pb
}
