package runner

// Family 3 — closures returned by a helper and called later: done := s.acquire(ctx, key);
// defer done(), run := s.prepare(job); run(ctx), two-level closures, and wrappers from another
// package (guard).

import (
	"context"
	"fmt"

	jobspb "example.test/dynamic/gen/jobs/v1"
	"example.test/dynamic/internal/guard"
	"example.test/dynamic/internal/store"
)

func (s *Server) acquire(ctx context.Context, key string) (func(), error) {
	if err := s.locks.Acquire(ctx, key); err != nil {
		return nil, err
	}
	return func() {
		rctx, cancel := context.WithTimeout(context.Background(), releaseBudget)
		defer cancel()
		_ = s.locks.Release(rctx, key)
	}, nil
}

func (s *Server) lease(key string) (func(), error) {
	ctx := context.Background()
	if err := s.locks.Acquire(ctx, key); err != nil {
		return nil, err
	}
	return func() { _ = s.locks.Release(ctx, key) }, nil
}

// ClaimJob claims a job for the calling worker under the job's lock.
func (s *Server) ClaimJob(ctx context.Context, req *jobspb.JobRequest) (*jobspb.Job, error) {
	done, err := s.acquire(ctx, "job:"+req.GetId()) // OK: the lock is taken with the request ctx
	if err != nil {
		return nil, err
	}
	defer done() // OK: deferred cleanup; the release uses a bounded root of its own
	if err := s.jobs.SetState(ctx, req.GetId(), "claimed"); err != nil {
		return nil, err
	}
	return &jobspb.Job{Id: req.GetId(), State: "claimed"}, nil
}

// LeaseJob leases a job under its lock and renews its lease.
func (s *Server) LeaseJob(ctx context.Context, req *jobspb.JobRequest) (*jobspb.Job, error) {
	release, err := s.lease("job:" + req.GetId()) // BUG: ctxbackground
	if err != nil {
		return nil, err
	}
	defer release() // OK: deferred cleanup
	if err := s.jobs.Renew(ctx, req.GetId(), renewTTL); err != nil {
		return nil, err
	}
	return &jobspb.Job{Id: req.GetId(), State: "leased"}, nil
}

// TransferJob moves a job to another lane: under its lock, the lock given back before the push.
func (s *Server) TransferJob(ctx context.Context, req *jobspb.CommandRequest) (*jobspb.CommandReply, error) {
	done, err := s.acquire(ctx, "job:"+req.GetArg()) // OK
	if err != nil {
		return nil, err
	}
	err = s.jobs.SetState(ctx, req.GetArg(), "transferring")
	done() // OK?: not deferred, but a release that must happen whether or not the caller is still there
	if err != nil {
		return nil, err
	}
	if err := s.queue.Push(ctx, req.GetShard(), req.GetArg()); err != nil {
		return nil, err
	}
	return &jobspb.CommandReply{Output: "transferred"}, nil
}

func (s *Server) prepare(job store.Job) func(context.Context) error {
	job.State = "running"
	job.Attempts++
	return func(context.Context) error {
		return s.jobs.Save(context.Background(), job)
	}
}

func (s *Server) prepareCopy(job store.Job, kind string) func(context.Context) error {
	cp := job
	cp.ID = job.ID + "-copy"
	cp.Kind = kind
	cp.State = "queued"
	return func(ctx context.Context) error {
		return s.jobs.Save(ctx, cp)
	}
}

// StartJob marks a job running.
func (s *Server) StartJob(ctx context.Context, req *jobspb.JobRequest) (*jobspb.Job, error) {
	job, err := s.jobs.Load(ctx, req.GetId())
	if err != nil {
		return nil, err
	}
	run := s.prepare(job)
	if err := run(ctx); err != nil { // BUG: ctxbackground
		return nil, err
	}
	return &jobspb.Job{Id: job.ID, State: "running"}, nil
}

// CopyJob queues a copy of a job under another kind.
func (s *Server) CopyJob(ctx context.Context, req *jobspb.JobRequest) (*jobspb.Job, error) {
	job, err := s.jobs.Load(ctx, req.GetId())
	if err != nil {
		return nil, err
	}
	run := s.prepareCopy(job, req.GetKind())
	if err := run(ctx); err != nil { // OK: the returned closure uses its ctx
		return nil, err
	}
	return &jobspb.Job{Id: job.ID + "-copy", Kind: req.GetKind(), State: "queued"}, nil
}

func (s *Server) stepper(state string) func(id string) func(context.Context) error {
	return func(id string) func(context.Context) error {
		return func(context.Context) error {
			return s.jobs.SetState(context.TODO(), id, state)
		}
	}
}

func (s *Server) marker(state string) func(id string) func(context.Context) error {
	return func(id string) func(context.Context) error {
		return func(ctx context.Context) error {
			return s.jobs.SetState(ctx, id, state)
		}
	}
}

// StageJobs marks the listed jobs staged, and the argument job pending.
func (s *Server) StageJobs(ctx context.Context, req *jobspb.CommandRequest) (*jobspb.CommandReply, error) {
	mark := s.marker("pending")
	if err := mark(req.GetArg())(ctx); err != nil { // OK: two-level closure that uses its ctx
		return nil, err
	}
	mk := s.stepper("staged")
	for _, id := range req.GetIds() {
		step := mk(id)
		if err := step(ctx); err != nil { // BUG: ctxbackground
			return nil, fmt.Errorf("stage %s: %w", id, err)
		}
	}
	return &jobspb.CommandReply{Count: int64(len(req.GetIds()))}, nil
}

// Restock books local corrections for every SKU and notes it on the job.
func (s *Server) Restock(ctx context.Context, req *jobspb.StockRequest) (*jobspb.StockReply, error) {
	for _, sku := range req.GetSkus() {
		adjust := func(ctx context.Context) error { return s.stock.Adjust(ctx, sku, req.GetQuantity()) }
		bounded := guard.Bounded(adjust, adjustBudget)
		if err := bounded(ctx); err != nil { // OK: guard.Bounded derives from the ctx it is given
			return nil, err
		}
	}
	note := guard.Detached(func(ctx context.Context) error {
		return s.jobs.AppendLog(ctx, req.GetJobId(), []string{"restocked"})
	}, noteBudget)
	if err := note(ctx); err != nil { // BUG: ctxbackground
		return nil, err
	}
	return &jobspb.StockReply{}, nil
}

func (s *Server) begin(ctx context.Context, id string) (func() error, error) {
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return nil, err
	}
	if _, err := tx.ExecContext(ctx, `SELECT 1 FROM jobs WHERE id = $1 FOR UPDATE`, id); err != nil {
		_ = tx.Rollback()
		return nil, err
	}
	return func() error {
		if _, err := tx.ExecContext(ctx, `UPDATE jobs SET state = 'committed' WHERE id = $1`, id); err != nil {
			_ = tx.Rollback()
			return err
		}
		return tx.Commit()
	}, nil
}

// CommitJob commits a job in one transaction.
func (s *Server) CommitJob(ctx context.Context, req *jobspb.JobRequest) (*jobspb.Job, error) {
	commit, err := s.begin(ctx, req.GetId())
	if err != nil {
		return nil, err
	}
	if err := commit(); err != nil { // OK: the closure captured the request ctx
		return nil, err
	}
	return &jobspb.Job{Id: req.GetId(), State: "committed"}, nil
}
