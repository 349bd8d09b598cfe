package server

import (
	"context"
	"errors"
	"fmt"
	"time"

	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	cpv1 "example.test/controlplane/gen/controlplane/v1"
	"example.test/controlplane/internal/rpcx"
	"example.test/controlplane/internal/store"
	"example.test/controlplane/internal/telemetry"
)

func (s *Server) SubmitJob(ctx context.Context, req *cpv1.SubmitJobRequest) (*cpv1.SubmitJobResponse, error) {
	ctx, span := telemetry.Start(ctx, "JobService.SubmitJob")
	defer span.End()

	spec := req.GetJob()
	if spec == nil {
		return nil, status.Error(codes.InvalidArgument, "job is required")
	}
	known, err := s.namespaces.Get() // OK: ctxbackground look-alike — generic lazy[T].Get loads through a method value on a fresh bounded root inside sync.Once: one-time shared init.
	if err != nil {
		return nil, rpcx.ToStatus(err)
	}
	if !known[spec.GetNamespace()] {
		return nil, status.Errorf(codes.NotFound, "namespace %q does not exist", spec.GetNamespace())
	}
	clusterID, err := s.store.ID(context.Background()) // OK: ctxbackground look-alike — ID works with its ctx only on first use (id.Load() == nil), then keeps the id: shared state read once.
	if err != nil {
		return nil, rpcx.ToStatus(err)
	}
	j := &store.Job{
		ID:        fmt.Sprintf("%s-%d", clusterID, time.Now().UnixNano()),
		Namespace: spec.GetNamespace(),
		Driver:    spec.GetDriver(),
		Image:     spec.GetImage(),
		Args:      spec.GetArgs(),
		State:     "pending",
	}

	for _, v := range s.validators {
		if err := v(ctx, j); err != nil { // BUG: ctxbackground — the validator table holds s.checkQuota, which lists the namespace's jobs on context.Background() instead of ctx.
			var verr *ValidationError
			if errors.As(err, &verr) {
				return nil, status.Error(codes.InvalidArgument, verr.Error()) // OK: statusmask look-alike — errors.As picks out the validation error; this branch cannot hold a deadline.
			}
			return nil, rpcx.ToStatus(err)
		}
	}
	if ok, err := s.checkConstraints(ctx, j); err != nil || !ok { // OK: ctxbackground look-alike — the pooled evaluator is reset with SetContext(context.Background()) after the work done with the request's ctx: an idle ctx for a pooled object.
		return nil, status.Errorf(codes.FailedPrecondition, "constraints not satisfied for %s", j.ID)
	}

	budget := 30 * time.Second
	if dl, ok := ctx.Deadline(); ok {
		budget = time.Until(dl) / 2 // OK: deadlinemath look-alike — Deadline's ok is checked before time.Until.
	}
	pctx, cancel := context.WithTimeout(ctx, budget)
	defer cancel()

	failpoint("submit-before-create", func() {
		_ = s.store.PutJob(context.Background(), &store.Job{ID: j.ID, State: "poisoned"}) // OK: ctxbackground look-alike — literal handed to failpoint, which never refers to it: never runs.
	})

	if err := s.store.CreateJob(pctx, j, s.place); err != nil { // OK: ctxbackground look-alike — CreateJob's rollback uses WithTimeout(context.Background(), 5s) only in the `if err != nil` branch that wraps and returns the error (place's nil-ctx fallback in opContext is a fallback too).
		return nil, rpcx.ToStatus(err)
	}

	// Tell the node agents; the status write is retried on conflicts.
	err = retry(ctx, 3, func(ctx context.Context) error {
		j.State = "queued"
		return s.store.PutJob(context.TODO(), j) // BUG: ctxbackground — the retried write ignores the attempt's ctx it was handed and runs on TODO.
	})
	if err != nil {
		return nil, rpcx.ToStatus(err)
	}

	task := store.NewTask(j.ID, func(tctx context.Context) error { return s.reevaluate(tctx, j.ID) }) // OK: ctxbackground look-alike — NewTask makes a root whose cancel the Task keeps in its CancelFn literal: the job runs after the request.
	if err := s.dispatch.Enqueue(ctx, task); err != nil {
		// Undo the create: the job never reached the queue.
		uctx, ucancel := context.WithTimeout(context.Background(), 5*time.Second) // OK: ctxbackground look-alike — bounded fresh ctx made only in the `if err != nil` branch from which the handler returns that error: undoing a step on the way out.
		defer ucancel()
		_ = s.store.DeleteJob(uctx, j.ID)
		return nil, err
	}
	s.dispatch.Kick(j.ID, s.reevaluate) // OK: ctxbackground look-alike — Kick runs the evaluation on a fresh bounded ctx in a goroutine it starts: shared work with a lifetime of its own.

	if spec.GetArgs() != nil && spec.GetArgs()[0] == "--service" {
		wctx, wcancel := context.WithCancel(s.ctx)
		s.mu.Lock()
		s.workers[j.ID] = wcancel
		s.mu.Unlock()
		go s.supervise(wctx, j) // OK: ctxflow look-alike — child of the server's lifetime ctx whose cancel the server keeps in s.workers (StopWorker ends it).
	}

	entry := telemetry.Entry{Actor: rpcx.Subject(ctx), Action: "submit", Object: j.ID}
	go s.auditor.Record(context.WithoutCancel(ctx), entry)
	// ^OK: detach look-alike — Auditor.Record bounds the row with WithTimeout(ctx, 3s) inside the callee.
	go s.fanout(rpcx.DetachedFromRequest(ctx), j) // OK: ctxbackground look-alike — DetachedFromRequest is a documented helper that detaches by hand (reads metadata and values, returns a fresh root carrying them); fanout bounds it.

	telemetry.JobsSubmitted.Add(ctx, 1, telemetry.Attr{Key: "namespace", Value: j.Namespace})
	s.log.Info(context.TODO(), "job submitted", "job", j.ID) // OK: ctxbackground look-alike — root handed only to the module's logger, which only reads the ctx's fields.
	return &cpv1.SubmitJobResponse{Id: j.ID, Version: j.Version}, nil
}

func (s *Server) GetJob(ctx context.Context, req *cpv1.GetJobRequest) (*cpv1.GetJobResponse, error) {
	id := req.GetId()
	if j, ok := s.cache.Lookup(context.Background(), id); ok { // OK: ctxbackground look-alike — JobCache's only implementation in sight (MemCache) ignores its ctx.
		return &cpv1.GetJobResponse{Job: toProto(j), TaskState: "cached"}, nil
	}
	j, err := s.store.GetJob(ctx, id)
	if errors.Is(err, store.ErrNotFound) {
		// Archived jobs live in the archive shard, when it is open.
		archived, aerr := s.shards.Lookup(ctx, "archive", id, false) // OK: ctxbackground look-alike — Lookup reaches warm()'s context.Background() only when load is true; this call passes false.
		if aerr != nil {
			return nil, status.Errorf(codes.NotFound, "job %s not found", id)
		}
		j, err = archived, nil
	}
	if err != nil {
		return nil, status.Errorf(codes.Internal, "get job %s: %v", id, err) // BUG: statusmask — only ErrNotFound was told apart above; a deadline of s.store.GetJob(ctx, …) becomes Internal.
	}
	if debug {
		s.dumpState(context.Background()) // OK: ctxbackground look-alike — under `if debug` with const debug = false: never runs.
	}

	taskState := "unknown"
	if drv, err := s.catalog.Get(ctx, j.Driver); err == nil {
		if st, err := drv.InspectTask(j.ID); err == nil { // OK? ctxbackground — GRPCDriver.InspectTask calls the plugin on context.Background() (the Driver interface gives it no ctx); GRPCDriver is the client adapter of a service its own package serves (DriverServer), which the catalogue leaves out, but the RPC really has no deadline.
			taskState = st.State
		}
	}
	s.cache.Remember(ctx, j)
	if owner := s.ownerOf(context.Background(), j); owner != "" { // OK: ctxbackground look-alike — ownerOf never refers to its ctx (a getter over the job's fields): the root bounds and carries nothing.
		taskState += "@" + owner
	}
	return &cpv1.GetJobResponse{Job: toProto(j), TaskState: taskState}, nil
}

func (s *Server) CancelJob(ctx context.Context, req *cpv1.CancelJobRequest) (*cpv1.CancelJobResponse, error) {
	unlock := s.locks.Lock(req.GetId()) // BUG: ctxless ALSO: ctxbackground — LockManager has LockContext(ctx, key); Lock waits for the advisory lock on context.Background() (which is also a root reached from the handler).
	defer unlock()

	j, err := s.store.GetJob(ctx, req.GetId())
	if err != nil {
		if c := rpcx.Code(err); c != codes.Unknown {
			return nil, status.Error(c, err.Error())
		}
		return nil, status.Errorf(codes.Internal, "cancel %s: %v", req.GetId(), err) // OK: statusmask look-alike — rpcx.Code (a module function taking the error and returning a code) classified it first.
	}
	s.dispatch.Cancel(j.ID, errors.New(req.GetReason()))
	s.StopWorker(j.ID)

	drv, err := s.catalog.Get(ctx, j.Driver)
	if err != nil {
		return nil, status.Errorf(codes.FailedPrecondition, "driver: %v", err) // OK: statusmask look-alike — Catalog.Get never refers to its ctx (the plugins are loaded once under sync.Once): its error is no deadline.
	}
	// Stopping must not be cut short by an impatient client.
	stop := stopRequest{ctx: s.ctx, taskID: j.ID, signal: "SIGTERM"}
	if err := drv.StopTask(stop.ctx, stop.taskID, stop.signal); err != nil { // BUG: ctxflow — the per-request struct carries the server's lifetime ctx (s.ctx) into the plugin RPC: no deadline, cancelled only at shutdown.
		s.log.Warn(ctx, "stop task", "job", j.ID, "err", err)
	}

	// TODO: bound this once the store has write timeouts.
	go s.publishCancelled(context.WithoutCancel(ctx), j)
	// ^BUG: detach

	_, span := telemetry.Start(context.Background(), "JobService.CancelJob.audit") // OK: ctxbackground look-alike — a span started on a root whose returned ctx is dropped: values only.
	defer span.End()
	return &cpv1.CancelJobResponse{}, nil
}

type stopRequest struct {
	ctx    context.Context
	taskID string
	signal string
}

func (s *Server) ListJobs(ctx context.Context, req *cpv1.ListJobsRequest) (*cpv1.ListJobsResponse, error) {
	if err := s.health.Check(s.ctx); err != nil { // OK: ctxflow look-alike — s.health is only ever set to memHealth, which answers from memory and only logs with the ctx.
		return nil, status.Error(codes.Unavailable, err.Error()) // OK: statusmask look-alike — the health check was given the server's ctx, not the request's, and memHealth does no work with it.
	}
	s.log.Debug(s.ctx, "list jobs", "namespace", req.GetNamespace()) // OK: ctxflow look-alike — server-lifetime ctx handed only to a logger that reads its values.

	var jobs []*store.Job
	var err error
	if node := req.GetNode(); node != "" {
		jobs, err = s.store.ListByNode(ctx, node) // BUG: ctxbackground — ListByNode swaps the caller's ctx for context.TODO() in its scan.
	} else {
		var shard *store.SQLStore
		shard, err = s.shards.For(ctx, req.GetNamespace()) // OK: ctxbackground look-alike — For opens a missing shard (on a fresh bounded ctx) while holding its lock, then fills the map: a per-namespace store created once.
		if err == nil {
			jobs, err = shard.ListJobs(ctx, req.GetNamespace())
		}
	}
	if err != nil {
		if errors.Is(err, context.DeadlineExceeded) || errors.Is(err, context.Canceled) {
			return nil, status.FromContextError(err).Err()
		}
		return nil, status.Errorf(codes.Unavailable, "list jobs: %v", err) // OK: statusmask look-alike — errors.Is picked out DeadlineExceeded and Canceled above.
	}
	out := &cpv1.ListJobsResponse{}
	for _, j := range jobs {
		out.Jobs = append(out.Jobs, toProto(j))
		if err := s.save(ctx, j, saveCheckpoint); err != nil { // OK: ctxbackground look-alike — save reaches its context.Background() write only when purpose == saveFlush; this passes saveCheckpoint.
			return nil, rpcx.ToStatus(err)
		}
	}
	return out, nil
}

func toProto(j *store.Job) *cpv1.Job {
	return &cpv1.Job{
		Id: j.ID, Namespace: j.Namespace, Node: j.Node, Driver: j.Driver,
		Image: j.Image, Args: j.Args, State: j.State, Version: j.Version,
	}
}
