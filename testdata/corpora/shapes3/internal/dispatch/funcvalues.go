package dispatch

// Job lookups, reindexing, admin commands and the run pipeline. The work is picked at run
// time: from a field set at start-up, a branch, a command table or a list of steps.

import (
	"context"
	"fmt"
	"strings"

	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	invpb "example.test/shapes3/gen/inventory/v1"
	jobspb "example.test/shapes3/gen/jobs/v1"
	"example.test/shapes3/internal/ledger"
)

// GetJob returns one job from the primary.
func (s *Server) GetJob(ctx context.Context, req *jobspb.JobRequest) (*jobspb.Job, error) {
	job, err := s.loadJob(ctx, req.GetId()) // OK: loadJob is s.jobs.Load, which reads with ctx
	if err != nil {
		return nil, err
	}
	return toProto(job), nil
}

// PeekJob returns a job from the replica when there is one; peeks may be slightly stale.
func (s *Server) PeekJob(ctx context.Context, req *jobspb.JobRequest) (*jobspb.Job, error) {
	job, err := s.peek(ctx, req.GetId()) // BUG: ctxbackground
	if err != nil {
		return nil, err
	}
	return toProto(job), nil
}

// peekReplica reads from the replica. The replica is allowed to lag and is never the reason a
// caller waits, so it reads on its own.
func (s *Server) peekReplica(_ context.Context, id string) (ledger.Job, error) {
	var job ledger.Job
	err := s.replica.QueryRowContext(context.Background(),
		`SELECT id, kind, state, tenant FROM jobs WHERE id = $1`, id).
		Scan(&job.ID, &job.Kind, &job.State, &job.Tenant)
	return job, err
}

// Reindex rebuilds the search index entries of a job; with full set, of the job's whole shard.
func (s *Server) Reindex(ctx context.Context, req *jobspb.JobRequest) (*jobspb.Job, error) {
	reindex := s.reindexJob
	if req.GetFull() {
		reindex = s.reindexShardOf
	}
	if err := reindex(ctx, req.GetId()); err != nil { // BUG: ctxbackground
		return nil, err
	}
	job, err := s.jobs.Load(ctx, req.GetId())
	if err != nil {
		return nil, err
	}
	return toProto(job), nil
}

func (s *Server) reindexJob(ctx context.Context, id string) error {
	_, err := s.db.ExecContext(ctx, `
		INSERT INTO job_search (job_id, doc) SELECT id, to_tsvector(kind || ' ' || skus) FROM jobs WHERE id = $1
		ON CONFLICT (job_id) DO UPDATE SET doc = EXCLUDED.doc`, id)
	return err
}

// reindexShardOf rebuilds the index of the job's whole shard. That takes a while, so it gets
// a budget of its own.
func (s *Server) reindexShardOf(_ context.Context, id string) error {
	ctx, cancel := context.WithTimeout(context.Background(), reindexBudget)
	defer cancel()
	_, err := s.db.ExecContext(ctx, `
		INSERT INTO job_search (job_id, doc)
		SELECT id, to_tsvector(kind || ' ' || skus) FROM jobs WHERE shard = (SELECT shard FROM jobs WHERE id = $1)
		ON CONFLICT (job_id) DO UPDATE SET doc = EXCLUDED.doc`, id)
	return err
}

// DryRun validates a job without running it and reports what its SKUs would cost.
func (s *Server) DryRun(ctx context.Context, req *jobspb.JobRequest) (*jobspb.Job, error) {
	job, err := s.jobs.Load(ctx, req.GetId())
	if err != nil {
		return nil, err
	}
	check := s.validate
	if req.GetFull() {
		check = s.validateDeep
	}
	if err := check(ctx, &job); err != nil { // OK: both validators query with the ctx they are given
		return nil, status.Error(codes.FailedPrecondition, err.Error())
	}
	var total int64
	for _, sku := range job.SKUs {
		p, err := s.unitPrice(sku)
		if err != nil {
			return nil, err
		}
		total += p
	}
	job.History = append(job.History, fmt.Sprintf("dry run: %d cents", total))
	return toProto(job), nil
}

func (s *Server) validate(ctx context.Context, job *ledger.Job) error {
	if len(job.SKUs) == 0 {
		return fmt.Errorf("job %s has no SKUs", job.ID)
	}
	var n int
	if err := s.db.QueryRowContext(ctx, `SELECT count(*) FROM skus WHERE sku = ANY(string_to_array($1, ','))`,
		strings.Join(job.SKUs, ",")).Scan(&n); err != nil {
		return err
	}
	if n != len(job.SKUs) {
		return fmt.Errorf("job %s: %d unknown SKUs", job.ID, len(job.SKUs)-n)
	}
	return nil
}

func (s *Server) validateDeep(ctx context.Context, job *ledger.Job) error {
	if err := s.validate(ctx, job); err != nil {
		return err
	}
	for _, sku := range job.SKUs {
		n, err := s.stock.Count(ctx, sku)
		if err != nil {
			return err
		}
		if n <= 0 {
			return fmt.Errorf("sku %s is out of stock", sku)
		}
	}
	return nil
}

// unitPrice returns the list price of sku, in cents.
func (s *Server) unitPrice(sku string) (int64, error) {
	item, err := s.getItem(context.Background(), &invpb.GetItemRequest{Sku: sku}) // BUG: missingdeadline
	if err != nil {
		return 0, err
	}
	return item.GetPriceCents(), nil
}

type op struct {
	do    func(ctx context.Context, req *jobspb.CommandRequest) (string, error)
	admin bool
}

// RunCommand runs one operator command on a shard or lane.
func (s *Server) RunCommand(ctx context.Context, req *jobspb.CommandRequest) (*jobspb.CommandReply, error) {
	ops := map[string]op{
		"drain":  {do: s.drainShard, admin: true},
		"pause":  {do: s.pauseLane},
		"resume": {do: s.resumeLane},
		"vacuum": {do: s.vacuumHistory, admin: true},
	}
	o, ok := ops[req.GetOp()]
	if !ok {
		return nil, status.Errorf(codes.InvalidArgument, "unknown command %q", req.GetOp())
	}
	if o.admin && !isAdmin(ctx) {
		return nil, status.Error(codes.PermissionDenied, "admin only")
	}
	out, err := o.do(ctx, req) // BUG: ctxbackground
	if err != nil {
		return nil, err
	}
	return &jobspb.CommandReply{Output: out}, nil
}

func (s *Server) drainShard(ctx context.Context, req *jobspb.CommandRequest) (string, error) {
	res, err := s.db.ExecContext(ctx, `UPDATE queue SET lane = 'parked' WHERE shard = $1`, req.GetShard())
	if err != nil {
		return "", err
	}
	n, _ := res.RowsAffected()
	return fmt.Sprintf("parked %d jobs", n), nil
}

func (s *Server) pauseLane(ctx context.Context, req *jobspb.CommandRequest) (string, error) {
	_, err := s.db.ExecContext(ctx, `UPDATE lanes SET paused = true WHERE name = $1`, req.GetArg())
	return "paused " + req.GetArg(), err
}

func (s *Server) resumeLane(ctx context.Context, req *jobspb.CommandRequest) (string, error) {
	_, err := s.db.ExecContext(ctx, `UPDATE lanes SET paused = false WHERE name = $1`, req.GetArg())
	return "resumed " + req.GetArg(), err
}

// vacuumHistory deletes history older than 90 days. Deleting in one statement is all or
// nothing anyway, so it is not cut short.
func (s *Server) vacuumHistory(_ context.Context, req *jobspb.CommandRequest) (string, error) {
	res, err := s.db.ExecContext(context.Background(),
		`DELETE FROM job_history WHERE at < now() - interval '90 days' AND job_id IN (SELECT id FROM jobs WHERE shard = $1)`,
		req.GetShard())
	if err != nil {
		return "", err
	}
	n, _ := res.RowsAffected()
	return fmt.Sprintf("deleted %d history rows", n), nil
}

// inspectors answer the read-only Inspect commands.
var inspectors = map[string]func(*Server, context.Context, *jobspb.CommandRequest) (string, error){
	"queue": (*Server).inspectQueue,
	"locks": (*Server).inspectLocks,
}

// Inspect answers a read-only operator question.
func (s *Server) Inspect(ctx context.Context, req *jobspb.CommandRequest) (*jobspb.CommandReply, error) {
	fn, ok := inspectors[req.GetOp()]
	if !ok {
		return nil, status.Errorf(codes.InvalidArgument, "nothing to inspect called %q", req.GetOp())
	}
	out, err := fn(s, ctx, req) // OK: every inspector reads with the ctx it is given
	if err != nil {
		return nil, err
	}
	return &jobspb.CommandReply{Output: out}, nil
}

func (s *Server) inspectQueue(ctx context.Context, req *jobspb.CommandRequest) (string, error) {
	var n int64
	err := s.db.QueryRowContext(ctx, `SELECT count(*) FROM queue WHERE lane = $1`, req.GetArg()).Scan(&n)
	return fmt.Sprintf("%d queued", n), err
}

func (s *Server) inspectLocks(ctx context.Context, req *jobspb.CommandRequest) (string, error) {
	var n int64
	err := s.db.QueryRowContext(ctx, `SELECT count(*) FROM locks WHERE owner = $1`, req.GetArg()).Scan(&n)
	return fmt.Sprintf("%d locks held", n), err
}

type step struct {
	name string
	run  func(context.Context, *ledger.Job) error
}

// RunPipeline validates, stages and publishes a job.
func (s *Server) RunPipeline(ctx context.Context, req *jobspb.JobRequest) (*jobspb.Job, error) {
	s.inflight.Add(1)
	defer s.inflight.Add(-1)
	job, err := s.jobs.Load(ctx, req.GetId())
	if err != nil {
		return nil, err
	}
	steps := []step{
		{"validate", s.validate},
		{"stage", s.stage},
		{"publish", s.publish},
	}
	for _, st := range steps {
		if err := st.run(ctx, &job); err != nil { // OK: every step works with the ctx it is given
			return nil, fmt.Errorf("%s: %w", st.name, err)
		}
		job.History = append(job.History, st.name)
	}
	return toProto(job), nil
}

func (s *Server) stage(ctx context.Context, job *ledger.Job) error {
	for _, sku := range job.SKUs {
		if err := s.stock.Hold(ctx, sku, 1, job.ID); err != nil {
			return err
		}
	}
	job.State = "staged"
	return s.jobs.SetState(ctx, job.ID, job.State)
}

func (s *Server) publish(ctx context.Context, job *ledger.Job) error {
	job.State = "published"
	if err := s.jobs.SetState(ctx, job.ID, job.State); err != nil {
		return err
	}
	_, err := s.db.ExecContext(ctx, `INSERT INTO outbox (topic, key) VALUES ('jobs.published', $1)`, job.ID)
	return err
}

// attempt is one retry of a job.
type attempt struct {
	ctx context.Context
	id  string
	n   int
}

// RetryJob puts a failed job back on the queue.
func (s *Server) RetryJob(ctx context.Context, req *jobspb.JobRequest) (*jobspb.Job, error) {
	a := attempt{ctx: s.baseCtx, id: req.GetId()}
	job, err := s.jobs.Load(ctx, a.id) // OK: the request ctx
	if err != nil {
		return nil, err
	}
	a.n = job.Attempts + 1
	if err := s.requeue(a.ctx, a.id, a.n); err != nil { // BUG: ctxflow
		return nil, err
	}
	job.Attempts, job.State = a.n, "queued"
	return toProto(job), nil
}

func (s *Server) requeue(ctx context.Context, id string, n int) error {
	_, err := s.db.ExecContext(ctx, `
		WITH j AS (UPDATE jobs SET state = 'queued', attempts = $2 WHERE id = $1 RETURNING id)
		INSERT INTO queue (job_id, lane) SELECT id, 'retry' FROM j`, id, n)
	return err
}

// FinishJob marks a job done, releases its holds and queues it for archiving.
func (s *Server) FinishJob(ctx context.Context, req *jobspb.JobRequest) (*jobspb.Job, error) {
	id := req.GetId()
	if err := s.jobs.SetState(ctx, id, "done"); err != nil {
		return nil, err
	}
	fctx := context.WithoutCancel(ctx)
	// ^BUG: detach
	if err := s.onFinish(fctx, id); err != nil {
		return nil, err
	}
	s.deferred.push(id, s.archiveJob) // OK: only queued here; Run calls it on the lifetime ctx
	job, err := s.jobs.Load(ctx, id)
	if err != nil {
		return nil, err
	}
	return toProto(job), nil
}

func (s *Server) releaseAllHolds(ctx context.Context, id string) error {
	_, err := s.db.ExecContext(ctx, `DELETE FROM holds WHERE job_id = $1`, id)
	return err
}

// archiveJob moves a finished job to the archive. It runs from Run, on its own budget.
func (s *Server) archiveJob(_ context.Context, id string) error {
	ctx, cancel := context.WithTimeout(context.Background(), statsBudget)
	defer cancel()
	_, err := s.db.ExecContext(ctx, `
		WITH j AS (DELETE FROM jobs WHERE id = $1 RETURNING *) INSERT INTO jobs_archive SELECT * FROM j`, id)
	return err
}
