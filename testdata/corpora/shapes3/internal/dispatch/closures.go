package dispatch

// Claiming, leasing, starting, copying and committing jobs. Helpers here hand back a function
// to call later: the release of a lock, a prepared run, a copier, a stager.

import (
	"context"
	"fmt"
	"log"

	invpb "example.test/shapes3/gen/inventory/v1"
	jobspb "example.test/shapes3/gen/jobs/v1"
	"example.test/shapes3/internal/ledger"
)

// acquire takes the lock key with ctx and returns the function that gives it back.
func (s *Server) acquire(ctx context.Context, key string) (func(), error) {
	owner := ownerFrom(ctx)
	if err := s.locks.Acquire(ctx, key, owner); err != nil {
		return nil, err
	}
	return func() {
		// the lock must be given back even when the request was cancelled
		rctx, cancel := context.WithTimeout(context.Background(), releaseBudget)
		defer cancel()
		if err := s.locks.Release(rctx, key, owner); err != nil {
			log.Printf("dispatch: release %s: %v", key, err)
		}
	}, nil
}

// ClaimJob hands a queued job to the calling worker.
func (s *Server) ClaimJob(ctx context.Context, req *jobspb.JobRequest) (*jobspb.Job, error) {
	release, err := s.acquire(ctx, "claim/"+req.GetId()) // OK: the lock is taken with the request ctx
	if err != nil {
		return nil, err
	}
	defer release() // OK: deferred cleanup; its fresh budget is not the request's work
	if err := s.jobs.SetState(ctx, req.GetId(), "claimed"); err != nil {
		return nil, err
	}
	job, err := s.jobs.Load(ctx, req.GetId())
	if err != nil {
		return nil, err
	}
	return toProto(job), nil
}

// leaseLock takes the job's lease lock. Workers take the same lock from the sweeper, so the
// lock is taken on its own context.
func (s *Server) leaseLock(id string) (func(), error) {
	ctx := context.Background()
	key := "lease/" + id
	if err := s.locks.Acquire(ctx, key, "dispatcher"); err != nil {
		return nil, err
	}
	return func() {
		if err := s.locks.Release(ctx, key, "dispatcher"); err != nil {
			log.Printf("dispatch: release %s: %v", key, err)
		}
	}, nil
}

// LeaseJob extends a job's lease.
func (s *Server) LeaseJob(ctx context.Context, req *jobspb.JobRequest) (*jobspb.Job, error) {
	release, err := s.leaseLock(req.GetId()) // BUG: ctxbackground
	if err != nil {
		return nil, err
	}
	defer release()
	if err := s.jobs.Touch(ctx, req.GetId()); err != nil {
		return nil, err
	}
	job, err := s.jobs.Load(ctx, req.GetId())
	if err != nil {
		return nil, err
	}
	return toProto(job), nil
}

// prepare returns the run of job: hold its stock and mark it running.
func (s *Server) prepare(job ledger.Job) func(context.Context) error {
	return func(ctx context.Context) error {
		for _, sku := range job.SKUs {
			if err := s.stock.Hold(ctx, sku, 1, job.ID); err != nil {
				return err
			}
		}
		return s.jobs.SetState(ctx, job.ID, "running")
	}
}

// StartJob starts a claimed job.
func (s *Server) StartJob(ctx context.Context, req *jobspb.JobRequest) (*jobspb.Job, error) {
	s.ratesOnce.Do(func() {
		s.rates, s.ratesErr = s.loadRates(context.Background()) // OK: one-time initialisation under sync.Once
	})
	if s.ratesErr != nil {
		return nil, s.ratesErr
	}
	job, err := s.jobs.Load(ctx, req.GetId())
	if err != nil {
		return nil, err
	}
	run := s.prepare(job)
	if err := run(ctx); err != nil { // OK: the prepared run works with the ctx it is called with
		return nil, err
	}
	job.State = "running"
	return toProto(job), nil
}

func (s *Server) loadRates(ctx context.Context) (map[string]int64, error) {
	rows, err := s.db.QueryContext(ctx, `SELECT kind, cents_per_unit FROM rates`)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	rates := make(map[string]int64)
	for rows.Next() {
		var kind string
		var cents int64
		if err := rows.Scan(&kind, &cents); err != nil {
			return nil, err
		}
		rates[kind] = cents
	}
	return rates, rows.Err()
}

// copier returns the function that copies src under a new id and kind.
func (s *Server) copier(src ledger.Job) func(context.Context, string) (ledger.Job, error) {
	return func(_ context.Context, kind string) (ledger.Job, error) {
		dst := src
		dst.ID = fmt.Sprintf("%s-copy-%d", src.ID, src.Attempts+1)
		dst.Kind, dst.State, dst.Attempts = kind, "queued", 0
		// a copy is written in one statement; there is nothing to cut short
		return dst, s.jobs.Save(context.Background(), dst)
	}
}

// CopyJob queues a copy of a job, optionally of another kind.
func (s *Server) CopyJob(ctx context.Context, req *jobspb.JobRequest) (*jobspb.Job, error) {
	src, err := s.jobs.Load(ctx, req.GetId())
	if err != nil {
		return nil, err
	}
	kind := req.GetKind()
	if kind == "" {
		kind = src.Kind
	}
	dup := s.copier(src)
	copied, err := dup(ctx, kind) // BUG: ctxbackground
	if err != nil {
		return nil, err
	}
	return toProto(copied), nil
}

// stager returns the function that stages one job of shard with ctx.
func (s *Server) stager(ctx context.Context, shard string) func(id string) error {
	return func(id string) error {
		_, err := s.db.ExecContext(ctx, `INSERT INTO staging (batch, job_id) VALUES ($1, $2)`, "stage-"+shard, id)
		return err
	}
}

// StageJobs stages jobs of a shard for a bulk move and copies them over.
func (s *Server) StageJobs(ctx context.Context, req *jobspb.CommandRequest) (*jobspb.CommandReply, error) {
	batch := "stage-" + req.GetShard()
	defer func() {
		dctx, cancel := context.WithTimeout(context.Background(), cleanupBudget) // OK: deferred cleanup on a bounded fresh ctx
		defer cancel()
		if _, err := s.db.ExecContext(dctx, `DELETE FROM staging WHERE batch = $1`, batch); err != nil {
			log.Printf("dispatch: drop staging %s: %v", batch, err)
		}
	}()
	stage := s.stager(ctx, req.GetShard())
	for _, id := range req.GetIds() {
		if err := stage(id); err != nil { // OK: the stager captured the request ctx
			return nil, err
		}
	}
	res, err := s.db.ExecContext(ctx, `UPDATE jobs SET shard = $2 WHERE id IN (SELECT job_id FROM staging WHERE batch = $1)`,
		batch, req.GetArg())
	if err != nil {
		return nil, err
	}
	n, _ := res.RowsAffected()
	return &jobspb.CommandReply{Count: n}, nil
}

// restocker returns the function that adds qty of a SKU and notes it, undoing the addition
// when the note fails.
func (s *Server) restocker(job string, qty int64) func(context.Context, string) error {
	return func(ctx context.Context, sku string) error {
		if err := s.stock.Adjust(ctx, sku, qty); err != nil {
			return err
		}
		if err := s.jobs.AppendNote(ctx, job, fmt.Sprintf("restocked %d of %s", qty, sku)); err != nil {
			// undo the adjustment; the caller's budget may be what ran out
			rctx, cancel := context.WithTimeout(context.Background(), rollbackBudget)
			defer cancel()
			if uerr := s.stock.Adjust(rctx, sku, -qty); uerr != nil {
				log.Printf("dispatch: undo restock of %s: %v", sku, uerr)
			}
			return err
		}
		return nil
	}
}

// confirmer returns the function that reports a restock to the inventory service.
func (s *Server) confirmer(job string, qty int64) func(context.Context, []string) error {
	return func(_ context.Context, skus []string) error {
		for _, sku := range skus {
			_, err := s.inv.Adjust(context.Background(), &invpb.AdjustRequest{Sku: sku, Delta: qty, Reason: "restock " + job}) // BUG: missingdeadline
			if err != nil {
				return err
			}
		}
		return nil
	}
}

// Restock adds stock for a job's SKUs here and at the inventory service.
func (s *Server) Restock(ctx context.Context, req *jobspb.StockRequest) (*jobspb.StockReply, error) {
	apply := s.restocker(req.GetJobId(), req.GetQuantity())
	for _, sku := range req.GetSkus() {
		if err := apply(ctx, sku); err != nil { // OK: adjusts with the ctx given; the fresh budget is the rollback after a failure
			return nil, err
		}
	}
	confirm := s.confirmer(req.GetJobId(), req.GetQuantity())
	if err := confirm(ctx, req.GetSkus()); err != nil {
		return nil, err
	}
	return &jobspb.StockReply{}, nil
}

func (s *Server) auditTrail(ctx context.Context, id string) func(string) {
	actx := context.WithoutCancel(ctx)
	// ^BUG: detach
	return func(line string) {
		if err := s.jobs.AppendNote(actx, id, line); err != nil {
			log.Printf("dispatch: audit %s: %v", id, err)
		}
	}
}

// CommitJob commits a finished job's stock movements.
func (s *Server) CommitJob(ctx context.Context, req *jobspb.JobRequest) (*jobspb.Job, error) {
	id := req.GetId()
	note := s.auditTrail(ctx, id)
	stop := context.AfterFunc(ctx, func() {
		// the caller gave up before the commit finished: put the job back for a worker
		_ = s.jobs.SetState(context.Background(), id, "queued") // OK: runs only once the request ctx is done
	})
	defer stop()
	if err := s.jobs.SetState(ctx, id, "committed"); err != nil {
		return nil, err
	}
	note("committed by " + ownerFrom(ctx))
	if err := s.bumpCounter(ctx, "commits"); err != nil { // OK: the Background in bumpCounter is only the nil-ctx fallback
		log.Printf("dispatch: count commit: %v", err)
	}
	job, err := s.jobs.Load(ctx, id)
	if err != nil {
		return nil, err
	}
	return toProto(job), nil
}

// mover returns the function that moves jobs to another shard.
func (s *Server) mover(from, to string) func(context.Context, []string) (int64, error) {
	return func(ctx context.Context, ids []string) (int64, error) {
		var moved int64
		for _, id := range ids {
			res, err := s.db.ExecContext(ctx, `UPDATE jobs SET shard = $3 WHERE id = $1 AND shard = $2`, id, from, to)
			if err != nil {
				return moved, err
			}
			n, _ := res.RowsAffected()
			moved += n
		}
		return moved, nil
	}
}

// TransferJob moves jobs from one shard to another.
func (s *Server) TransferJob(ctx context.Context, req *jobspb.CommandRequest) (*jobspb.CommandReply, error) {
	if !isAdmin(ctx) {
		return nil, fmt.Errorf("transfer: admin only")
	}
	move := s.mover(req.GetShard(), req.GetArg())
	// transfers stop at shutdown, not when the operator's CLI goes away
	n, err := move(shutdownCtx, req.GetIds()) // BUG: ctxflow
	if err != nil {
		return nil, err
	}
	return &jobspb.CommandReply{Count: n}, nil
}

// bumpCounter adds one to a named counter. Callers without a ctx of their own may pass nil.
func (s *Server) bumpCounter(ctx context.Context, name string) error {
	if ctx == nil {
		ctx = context.Background()
	}
	_, err := s.db.ExecContext(ctx, `UPDATE counters SET n = n + 1 WHERE name = $1`, name)
	return err
}
