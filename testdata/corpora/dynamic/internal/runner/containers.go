package runner

// Family 7 — ctx values in containers: a ctx read from a map or a slice element filled by the
// constructor, from a package-level map, from a struct kept in a map, or returned by a method
// of an interface value whose dynamic type this package can see (s.life.Context()).

import (
	"context"
	"fmt"
	"time"

	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	jobspb "example.test/dynamic/gen/jobs/v1"
)

// scoper binds a request ctx to the caller's tenant. One implementation: tenantScope.
type scoper interface {
	Bind(ctx context.Context) context.Context
}

type tenantScope struct{}

func (tenantScope) Bind(ctx context.Context) context.Context {
	return context.WithValue(ctx, tenantKey{}, tenantOf(ctx))
}

// MoveJobs moves the listed jobs to another shard.
func (s *Server) MoveJobs(ctx context.Context, req *jobspb.CommandRequest) (*jobspb.CommandReply, error) {
	sctx, ok := s.shardCtx[req.GetShard()]
	if !ok {
		return nil, status.Error(codes.NotFound, "unknown shard")
	}
	for _, id := range req.GetIds() {
		if err := s.jobs.MoveTo(sctx, id, req.GetShard()); err != nil { // BUG: ctxflow
			return nil, err
		}
	}
	return &jobspb.CommandReply{Count: int64(len(req.GetIds()))}, nil
}

// EnqueueJob queues a job on a worker's lane.
func (s *Server) EnqueueJob(ctx context.Context, req *jobspb.CommandRequest) (*jobspb.CommandReply, error) {
	w := int(req.GetWorker()) % len(s.workerCtx)
	if w < 0 {
		w = -w
	}
	lane := fmt.Sprintf("worker-%d", w)
	if err := s.queue.Push(s.workerCtx[w], lane, req.GetArg()); err != nil { // BUG: ctxflow
		return nil, err
	}
	return &jobspb.CommandReply{Output: lane}, nil
}

// SaveJob stores a job as given.
func (s *Server) SaveJob(ctx context.Context, req *jobspb.Job) (*jobspb.Job, error) {
	if err := s.jobs.Save(s.life.Context(), fromProto(req)); err != nil { // BUG: ctxflow
		return nil, err
	}
	return req, nil
}

// TenantUsage returns the units the tenant's jobs hold.
func (s *Server) TenantUsage(ctx context.Context, req *jobspb.CommandRequest) (*jobspb.CommandReply, error) {
	t, ok := s.tenants[req.GetTenant()]
	if !ok {
		return nil, status.Error(codes.NotFound, "unknown tenant")
	}
	n, err := s.stock.CountForTenant(t.ctx, t.name) // BUG: ctxflow
	if err != nil {
		return nil, err
	}
	return &jobspb.CommandReply{Output: fmt.Sprintf("%d of %d", n, t.limit), Count: n}, nil
}

// LaneDepth returns the depth of a queue lane.
func (s *Server) LaneDepth(ctx context.Context, req *jobspb.CommandRequest) (*jobspb.CommandReply, error) {
	lctx, ok := lanes[req.GetArg()]
	if !ok {
		return nil, status.Error(codes.NotFound, "unknown lane")
	}
	n, err := s.queue.Depth(lctx, req.GetArg()) // BUG: ctxflow
	if err != nil {
		return nil, err
	}
	return &jobspb.CommandReply{Count: n}, nil
}

// CompareJob reads a job with the request's budget and with a short one, and reports the
// fresher.
func (s *Server) CompareJob(ctx context.Context, req *jobspb.JobRequest) (*jobspb.Job, error) {
	fast, cancel := context.WithTimeout(ctx, compareBudget)
	defer cancel()
	ctxs := map[string]context.Context{"primary": ctx, "fast": fast}
	legs := []context.Context{ctxs["primary"], ctxs["fast"]}
	best := &jobspb.Job{}
	var newest time.Time
	for i, lctx := range legs {
		load := s.jobs.Load
		if i == 0 {
			load = s.jobs.LoadPrimary
		}
		job, err := load(lctx, req.GetId()) // OK: both legs derive from the request ctx
		if err != nil {
			continue
		}
		if job.Updated.After(newest) {
			newest, best = job.Updated, toProto(job)
		}
	}
	if n, err := s.queue.Depth(ctxs["fast"], "default"); err == nil && n > 1000 { // OK: map built in the handler from the request ctx
		best.History = append(best.History, "queue busy")
	}
	return best, nil
}

// TagJob marks a job tagged under the caller's tenant.
func (s *Server) TagJob(ctx context.Context, req *jobspb.JobRequest) (*jobspb.Job, error) {
	tctx := s.scope.Bind(ctx)
	if err := s.jobs.SetState(tctx, req.GetId(), "tagged"); err != nil { // OK: Bind derives from the ctx it is given
		return nil, err
	}
	return &jobspb.Job{Id: req.GetId(), State: "tagged", Tenant: tenantOf(tctx)}, nil
}

// WaitIdle waits until a lane is empty, or the server shuts down.
func (s *Server) WaitIdle(ctx context.Context, req *jobspb.CommandRequest) (*jobspb.CommandReply, error) {
	for {
		n, err := s.queue.Depth(ctx, req.GetArg()) // OK
		if err != nil {
			return nil, err
		}
		if n == 0 {
			return &jobspb.CommandReply{Output: "idle"}, nil
		}
		select {
		case <-ctx.Done():
			return nil, ctx.Err()
		case <-s.life.Context().Done(): // OK: only watches for shutdown, no work with it
			return nil, status.Error(codes.Unavailable, "shutting down")
		case <-time.After(idlePoll):
		}
	}
}
