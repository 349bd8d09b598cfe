package manager

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"time"

	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	clusterv1 "example.test/operator/gen/cluster/v1"
	"example.test/operator/internal/ops"
	"example.test/operator/internal/retry"
	"example.test/operator/internal/store"
)

func validWorkload(w *clusterv1.Workload) error {
	switch {
	case w == nil:
		return errors.New("workload is required")
	case w.GetName() == "" || strings.ContainsAny(w.GetName(), " /"):
		return fmt.Errorf("invalid workload name %q", w.GetName())
	case w.GetImage() == "":
		return errors.New("image is required")
	case w.GetReplicas() < 0 || w.GetReplicas() > 1000:
		return fmt.Errorf("replicas %d out of range", w.GetReplicas())
	}
	return nil
}

// ApplyWorkload creates or updates a workload spec.
func (s *ClusterServer) ApplyWorkload(ctx context.Context, req *clusterv1.ApplyWorkloadRequest) (*clusterv1.Workload, error) {
	if err := requireRole(ctx, "deployer"); err != nil {
		return nil, err
	}
	w := req.GetWorkload()
	if err := validWorkload(w); err != nil {
		return nil, status.Error(codes.InvalidArgument, err.Error())
	}
	sw := workloadFromProto(w)
	gen, err := s.store.PutWorkload(ctx, sw) // OK
	if err != nil {
		return nil, storeErr(err)
	}
	sw.Generation = gen
	err = s.store.AppendAudit(ctx, store.AuditEntry{ // BUG: ctxbackground
		Actor: actor(ctx), Method: "ApplyWorkload", Target: sw.Name,
		Detail: fmt.Sprintf("image=%s replicas=%d generation=%d", sw.Image, sw.Replicas, gen),
	})
	if err != nil {
		s.log.WarnContext(ctx, "audit", "workload", sw.Name, "err", err)
	}

	if req.GetPrepull() {
		nodes := s.m.nodesMatching(sw.NodeSelector)
		pctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 10*time.Minute)
		// ^BUG: detach
		var wg sync.WaitGroup
		for _, n := range nodes {
			c, err := s.agents.For(n.Name, n.Address)
			if err != nil {
				continue
			}
			wg.Go(func() {
				if _, err := c.PullImage(pctx, sw.Image); err != nil { // OK: bounded; unary in request scope
					s.log.WarnContext(pctx, "prepull", "node", n.Name, "image", sw.Image, "err", err)
				}
			})
		}
		go func() {
			wg.Wait()
			cancel()
		}()
	}
	s.m.EnqueueWorkload(sw.Name) // OK
	return workloadToProto(sw), nil
}

// GetWorkload returns a workload from the cache, falling back to the store.
func (s *ClusterServer) GetWorkload(ctx context.Context, req *clusterv1.GetWorkloadRequest) (*clusterv1.Workload, error) {
	if w, ok := s.m.workloads.Get(req.GetName()); ok && !w.Deleted { // OK: cache read
		return workloadToProto(w), nil
	}
	w, err := s.store.GetWorkload(ctx, req.GetName()) // OK
	if err != nil {
		return nil, storeErr(err)
	}
	if w.Deleted {
		return nil, status.Errorf(codes.NotFound, "workload %q was deleted", w.Name)
	}
	return workloadToProto(w), nil
}

// DeleteWorkload deletes a workload; with purge, its replicas are stopped
// before the call returns and the row is removed.
func (s *ClusterServer) DeleteWorkload(ctx context.Context, req *clusterv1.DeleteWorkloadRequest) (*clusterv1.DeleteWorkloadResponse, error) {
	if err := requireRole(ctx, "deployer"); err != nil {
		return nil, err
	}
	name := req.GetName()
	if req.GetPurge() {
		for _, p := range s.m.Placements(name) {
			c, err := s.agents.For(p.Node, p.Address)
			if err != nil {
				return nil, status.Errorf(codes.Unavailable, "node %s: %v", p.Node, err)
			}
			if _, err := c.StopContainer(ctx, p.ContainerID, s.m.cfg.DefaultDrainGrace); err != nil { // BUG: ctxbackground
				return nil, status.Errorf(codes.Unavailable, "stop %s on %s: %v", p.ContainerID, p.Node, err)
			}
		}
		s.m.setPlacements(name, nil)
	}
	gen, err := s.store.DeleteWorkload(s.m.ctx, name, req.GetPurge()) // BUG: ctxflow
	if err != nil {
		return nil, storeErr(err)
	}
	s.recordEvent(ctx, store.Event{Kind: "Workload", Object: name, Reason: "Deleted", Message: "deleted by " + actor(ctx)}) // OK
	s.m.EnqueueWorkload(name)                                                                                               // OK
	return &clusterv1.DeleteWorkloadResponse{Name: name, Generation: gen}, nil
}

// ScaleWorkload changes the replica count, retrying on write conflicts.
func (s *ClusterServer) ScaleWorkload(ctx context.Context, req *clusterv1.ScaleWorkloadRequest) (*clusterv1.Workload, error) {
	if err := requireRole(ctx, "deployer"); err != nil {
		return nil, err
	}
	if req.GetReplicas() < 0 || req.GetReplicas() > 1000 {
		return nil, status.Errorf(codes.InvalidArgument, "replicas %d out of range", req.GetReplicas())
	}
	wctx := ctx
	if req.GetForce() {
		// forced scale-downs are used during incidents; finish them regardless
		wctx = context.Background() // BUG: ctxbackground
	}
	var gen int64
	err := s.backoff.Retry(func() error { // BUG: ctxless
		var err error
		gen, err = s.store.UpdateReplicas(wctx, req.GetName(), req.GetReplicas(), req.GetExpectedGeneration())
		if errors.Is(err, store.ErrConflict) && req.GetExpectedGeneration() != 0 {
			return retry.Permanent(err)
		}
		return err
	})
	if err != nil {
		return nil, storeErr(err)
	}
	s.m.EnqueueWorkload(req.GetName())                // OK
	w, err := s.store.GetWorkload(ctx, req.GetName()) // OK
	if err != nil {
		return nil, storeErr(err)
	}
	w.Generation = gen
	return workloadToProto(w), nil
}

// RestartWorkload restarts every replica, one at a time. With wait, the
// restart happens within the call; otherwise an operation is returned.
func (s *ClusterServer) RestartWorkload(ctx context.Context, req *clusterv1.RestartWorkloadRequest) (*clusterv1.Operation, error) {
	if err := requireRole(ctx, "deployer"); err != nil {
		return nil, err
	}
	name := req.GetName()
	if _, ok := s.m.workloads.Get(name); !ok { // OK: cache read
		return nil, status.Errorf(codes.NotFound, "workload %q not found", name)
	}
	placements := s.m.Placements(name)

	if req.GetWait() {
		started := time.Now()
		restartOne := func(p Placement) error {
			c, err := s.agents.For(p.Node, p.Address)
			if err != nil {
				return err
			}
			if _, err := c.Restart(p.ContainerID); err != nil { // BUG: ctxbackground, ctxless
				return err
			}
			time.Sleep(s.m.cfg.RestartStagger) // OK: time.Sleep: a single deliberate stagger in a helper literal, in no loop of its own (ctxless reports a sleep only in a loop that can turn without checking a ctx; precision issue)
			return nil
		}
		for _, p := range placements {
			if err := restartOne(p); err != nil {
				return nil, status.Errorf(codes.Unavailable, "restart %s on %s: %v", p.ContainerID, p.Node, err)
			}
		}
		return opToProto(ops.Operation{ID: "sync", Kind: "restart", Target: name, State: ops.Succeeded,
			StartedAt: started, FinishedAt: time.Now()}), nil
	}

	op := s.m.ops.Begin(context.WithoutCancel(ctx), "restart", name, func(ctx context.Context) ([]byte, error) {
		// ^BUG: detach
		return nil, s.rollingRestart(ctx, placements) // OK
	})
	s.recordEvent(ctx, store.Event{Kind: "Workload", Object: name, Reason: "Restarting", // OK
		Message: fmt.Sprintf("restart %s started by %s", op.ID, actor(ctx))})
	return opToProto(op), nil
}

// rollingRestart restarts placements one by one, pausing between them so that
// the workload keeps serving.
func (s *ClusterServer) rollingRestart(ctx context.Context, placements []Placement) error {
	for i, p := range placements {
		c, err := s.agents.For(p.Node, p.Address)
		if err != nil {
			return err
		}
		if _, err := c.RestartContext(ctx, p.ContainerID); err != nil { // OK
			return err
		}
		if i < len(placements)-1 {
			time.Sleep(s.m.cfg.RestartStagger) // OK: helper method, not a handler
		}
	}
	return nil
}
