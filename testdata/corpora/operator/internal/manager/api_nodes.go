package manager

import (
	"context"
	"encoding/json"
	"fmt"
	"net"
	"slices"
	"strconv"
	"time"

	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	clusterv1 "example.test/operator/gen/cluster/v1"
	"example.test/operator/internal/retry"
	"example.test/operator/internal/store"
)

// RegisterNode is called by every agent at start-up and then as a heartbeat.
func (s *ClusterServer) RegisterNode(ctx context.Context, req *clusterv1.RegisterNodeRequest) (*clusterv1.Node, error) {
	host := req.GetHostname()
	if host == "" || req.GetAgentPort() <= 0 {
		return nil, status.Error(codes.InvalidArgument, "hostname and agent_port are required")
	}
	addrs, err := net.LookupHost(host) // BUG: ctxless
	if err != nil || len(addrs) == 0 {
		return nil, status.Errorf(codes.InvalidArgument, "cannot resolve %q: %v", host, err)
	}
	n := &store.Node{
		Name:         host,
		Address:      net.JoinHostPort(addrs[0], strconv.Itoa(int(req.GetAgentPort()))),
		Phase:        "Pending",
		Labels:       req.GetLabels(),
		CPUMillis:    req.GetCpuMillis(),
		MemoryBytes:  req.GetMemoryBytes(),
		AgentVersion: req.GetAgentVersion(),
	}
	_, known := s.m.nodes.Get(host)                    // OK: cache read
	if err := s.store.UpsertNode(ctx, n); err != nil { // OK
		return nil, storeErr(err)
	}
	if !known {
		s.recordEvent(ctx, store.Event{Kind: "Node", Object: host, Reason: "Registered", // OK
			Message: fmt.Sprintf("agent %s at %s", n.AgentVersion, n.Address)})
		s.m.Resync("node registered") // OK: the manager's own goroutine, on its own ctx
	}
	s.m.EnqueueNode(host) // OK: hand-off to the controller queue
	n.LastHeartbeat = time.Now()
	return nodeToProto(n), nil
}

// GetNode returns a node from the cache, optionally with live agent status.
func (s *ClusterServer) GetNode(ctx context.Context, req *clusterv1.GetNodeRequest) (*clusterv1.Node, error) {
	n, ok := s.m.nodes.Get(req.GetName()) // OK: cache read
	if !ok {
		var err error
		n, err = s.store.GetNode(context.TODO(), req.GetName()) // BUG: ctxbackground
		if err != nil {
			return nil, storeErr(err)
		}
	}
	pb := nodeToProto(n)
	if !req.GetLive() {
		return pb, nil
	}
	c, err := s.agents.For(n.Name, n.Address)
	if err != nil {
		return nil, status.Errorf(codes.Unavailable, "node %s: %v", n.Name, err)
	}
	st, err := c.Status(ctx) // OK: request ctx passed on (unary in request scope)
	if status.Code(err) == codes.Unavailable {
		retry.Pause(0)          // OK: helper that sleeps; ctxless reports direct calls only
		st, err = c.Status(ctx) // OK
	}
	if err != nil {
		return nil, status.Errorf(codes.Unavailable, "node %s: %v", n.Name, err)
	}
	if !st.GetReady() {
		pb.Phase = clusterv1.NodePhase_NODE_PHASE_NOT_READY
	}
	return pb, nil
}

// ListNodes lists nodes from the cache.
func (s *ClusterServer) ListNodes(ctx context.Context, req *clusterv1.ListNodesRequest) (*clusterv1.ListNodesResponse, error) {
	all := s.m.nodes.List() // OK: cache read
	slices.SortFunc(all, func(a, b *store.Node) int {
		if a.Name < b.Name {
			return -1
		}
		if a.Name > b.Name {
			return 1
		}
		return 0
	})
	var matched []*clusterv1.Node
	for _, n := range all {
		if n.Name <= req.GetPageToken() {
			continue
		}
		keep := true
		for k, v := range req.GetSelector() {
			if n.Labels[k] != v {
				keep = false
				break
			}
		}
		if keep {
			matched = append(matched, nodeToProto(n))
		}
	}
	size := int(req.GetPageSize())
	if size <= 0 || size > 500 {
		size = 100
	}
	resp := &clusterv1.ListNodesResponse{}
	if len(matched) > size {
		matched = matched[:size]
		resp.NextPageToken = matched[size-1].GetName()
	}
	resp.Nodes = matched
	total, err := s.store.CountNodes(ctx) // OK
	if err != nil {
		return nil, storeErr(err)
	}
	resp.Total = total
	return resp, nil
}

// nodeChange is one cordon/uncordon request.
type nodeChange struct {
	ctx    context.Context
	name   string
	cordon bool
	reason string
}

// CordonNode marks a node (un)schedulable.
func (s *ClusterServer) CordonNode(ctx context.Context, req *clusterv1.CordonNodeRequest) (*clusterv1.Node, error) {
	if err := requireRole(ctx, "operator"); err != nil {
		return nil, err
	}
	change := nodeChange{
		ctx:    s.m.ctx,
		name:   req.GetName(),
		cordon: !req.GetUncordon(),
		reason: req.GetReason(),
	}
	n, err := s.store.SetUnschedulable(change.ctx, change.name, change.cordon) // BUG: ctxflow
	if err != nil {
		return nil, storeErr(err)
	}
	reason := "Uncordoned"
	if change.cordon {
		reason = "Cordoned"
	}
	s.recordEvent(ctx, store.Event{Kind: "Node", Object: n.Name, Reason: reason, // OK
		Message: fmt.Sprintf("%s by %s: %s", reason, actor(ctx), change.reason)})
	s.m.EnqueueNode(n.Name) // OK
	return nodeToProto(n), nil
}

// DrainNode cordons a node and evicts everything on it, as an operation.
func (s *ClusterServer) DrainNode(ctx context.Context, req *clusterv1.DrainNodeRequest) (*clusterv1.Operation, error) {
	if err := requireRole(ctx, "operator"); err != nil {
		return nil, err
	}
	n, ok := s.m.nodes.Get(req.GetName()) // OK: cache read
	if !ok {
		return nil, status.Errorf(codes.NotFound, "node %q not found", req.GetName())
	}
	if _, err := s.store.SetUnschedulable(ctx, n.Name, true); err != nil { // OK
		return nil, storeErr(err)
	}
	c, err := s.agents.For(n.Name, n.Address)
	if err != nil {
		return nil, status.Errorf(codes.Unavailable, "node %s: %v", n.Name, err)
	}
	grace := time.Duration(req.GetGracePeriodSeconds()) * time.Second
	if grace <= 0 {
		grace = s.m.cfg.DefaultDrainGrace
	}

	// A drain keeps going after the caller disconnects: a half-drained node is
	// worse than either end state. It is bounded by the grace period plus slack.
	dctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), grace+2*time.Minute)   // OK: bounded and explained
	op := s.m.ops.Begin(dctx, "drain", n.Name, func(ctx context.Context) ([]byte, error) { // OK
		defer cancel()
		resp, err := c.Drain(ctx, grace, req.GetForce()) // OK
		if err != nil {
			return nil, err
		}
		for _, w := range s.m.workloadsOn(n.Name) {
			s.m.EnqueueWorkload(w)
		}
		return json.Marshal(resp)
	})
	s.recordEvent(ctx, store.Event{Kind: "Node", Object: n.Name, Reason: "Draining", // OK
		Message: fmt.Sprintf("drain %s started by %s", op.ID, actor(ctx))})
	return opToProto(op), nil
}

// ExecOnNode runs a command on a node through its agent.
func (s *ClusterServer) ExecOnNode(ctx context.Context, req *clusterv1.ExecOnNodeRequest) (*clusterv1.ExecOnNodeResponse, error) {
	if err := requireRole(ctx, "exec"); err != nil {
		return nil, err
	}
	if len(req.GetArgv()) == 0 {
		return nil, status.Error(codes.InvalidArgument, "argv is required")
	}
	n, ok := s.m.nodes.Get(req.GetNode()) // OK: cache read
	if !ok {
		return nil, status.Errorf(codes.NotFound, "node %q not found", req.GetNode())
	}
	c, err := s.agents.For(n.Name, n.Address)
	if err != nil {
		return nil, status.Errorf(codes.Unavailable, "node %s: %v", n.Name, err)
	}
	resp, err := c.Exec(ctx, req.GetArgv()) // BUG: ctxbackground
	if err != nil {
		return nil, status.Errorf(codes.Unavailable, "%v", err)
	}
	s.recordEvent(ctx, store.Event{Kind: "Node", Object: n.Name, Reason: "Exec", // OK
		Message: fmt.Sprintf("%s ran %q (exit %d)", actor(ctx), req.GetArgv(), resp.GetExitCode())})
	return &clusterv1.ExecOnNodeResponse{
		ExitCode: resp.GetExitCode(),
		Stdout:   resp.GetStdout(),
		Stderr:   resp.GetStderr(),
	}, nil
}
