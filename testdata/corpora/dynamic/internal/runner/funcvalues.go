package runner

// Family 2 — function values stored in struct fields, maps and slices (command tables), and
// in locals merged by a phi (if/else choosing between two functions).

import (
	"context"
	"fmt"
	"sort"
	"strings"

	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	jobspb "example.test/dynamic/gen/jobs/v1"
	"example.test/dynamic/internal/store"
)

// Reindex rebuilds one job's index entry.
func (s *Server) Reindex(ctx context.Context, req *jobspb.JobRequest) (*jobspb.Job, error) {
	job, err := s.resolve(ctx, req.GetId()) // OK: the field holds s.jobs.Load only
	if err != nil {
		return nil, err
	}
	if err := s.reindex(ctx, job.ID); err != nil { // BUG: ctxbackground
		return nil, err
	}
	return toProto(job), nil
}

func (s *Server) reindexNow(_ context.Context, id string) error {
	ctx, cancel := context.WithTimeout(context.Background(), reindexBudget)
	defer cancel()
	return s.idx.Rebuild(ctx, id)
}

func (s *Server) reindexLater(ctx context.Context, id string) error {
	return s.queue.Push(ctx, "reindex", id)
}

type op struct {
	do    func(ctx context.Context, arg string) error
	admin bool
}

// RunCommand runs an operator command on a queue lane.
func (s *Server) RunCommand(ctx context.Context, req *jobspb.CommandRequest) (*jobspb.CommandReply, error) {
	ops := map[string]op{
		"drain":  {do: s.drain, admin: true},
		"pause":  {do: s.pause},
		"resume": {do: s.resume},
	}
	o, ok := ops[req.GetOp()]
	if !ok {
		return nil, status.Error(codes.InvalidArgument, "unknown command")
	}
	if o.admin && !isAdmin(ctx) {
		return nil, status.Error(codes.PermissionDenied, "admin only")
	}
	if err := o.do(ctx, req.GetArg()); err != nil { // BUG: ctxbackground
		return nil, err
	}
	return &jobspb.CommandReply{Output: req.GetOp() + " " + req.GetArg() + ": ok"}, nil
}

func (s *Server) drain(_ context.Context, lane string) error {
	_, err := s.queue.Drain(context.Background(), lane)
	return err
}

func (s *Server) pause(ctx context.Context, lane string) error { return s.queue.Pause(ctx, lane) }

func (s *Server) resume(ctx context.Context, lane string) error { return s.queue.Resume(ctx, lane) }

// Inspect reports the queue depth and the held units of its argument.
func (s *Server) Inspect(ctx context.Context, req *jobspb.CommandRequest) (*jobspb.CommandReply, error) {
	checks := map[string]func(context.Context, string) (int64, error){
		"depth": s.queue.Depth,
		"held":  s.stock.Count,
	}
	names := make([]string, 0, len(checks))
	for name := range checks {
		names = append(names, name)
	}
	sort.Strings(names)
	var out []string
	for _, name := range names {
		n, err := checks[name](ctx, req.GetArg()) // OK: every function in the table uses its ctx
		if err != nil {
			return nil, err
		}
		out = append(out, fmt.Sprintf("%s=%d", name, n))
	}
	return &jobspb.CommandReply{Output: strings.Join(out, " ")}, nil
}

// maintenance is the table of database maintenance commands, as method expressions.
var maintenance = map[string]func(*Server, context.Context, string) error{
	"vacuum":  (*Server).vacuum,
	"analyze": (*Server).analyze,
}

// Maintain runs a maintenance command on a table.
func (s *Server) Maintain(ctx context.Context, req *jobspb.CommandRequest) (*jobspb.CommandReply, error) {
	fn, ok := maintenance[req.GetOp()]
	if !ok {
		return nil, status.Error(codes.InvalidArgument, "unknown maintenance command")
	}
	if err := fn(s, ctx, req.GetArg()); err != nil { // BUG: ctxbackground
		return nil, err
	}
	return &jobspb.CommandReply{Output: req.GetOp() + ": ok"}, nil
}

func (s *Server) vacuum(_ context.Context, table string) error {
	_, err := s.db.ExecContext(context.TODO(), `SELECT maintenance.vacuum($1)`, table)
	return err
}

func (s *Server) analyze(ctx context.Context, table string) error {
	_, err := s.db.ExecContext(ctx, `SELECT maintenance.analyze($1)`, table)
	return err
}

// RunPipeline validates, estimates and commits a job.
func (s *Server) RunPipeline(ctx context.Context, req *jobspb.JobRequest) (*jobspb.Job, error) {
	job, err := s.jobs.Load(ctx, req.GetId())
	if err != nil {
		return nil, err
	}
	steps := []func(context.Context, *store.Job) error{s.validate, s.estimate, s.commitJob}
	for _, step := range steps {
		if err := step(ctx, &job); err != nil { // BUG: ctxbackground
			return nil, err
		}
	}
	return toProto(job), nil
}

// DryRun validates and estimates a job without committing it.
func (s *Server) DryRun(ctx context.Context, req *jobspb.JobRequest) (*jobspb.Job, error) {
	job, err := s.jobs.Load(ctx, req.GetId())
	if err != nil {
		return nil, err
	}
	checks := []func(context.Context, *store.Job) error{s.validate, s.estimate}
	for _, check := range checks {
		if err := check(ctx, &job); err != nil { // OK: both functions use their ctx
			return nil, err
		}
	}
	return toProto(job), nil
}

func (s *Server) validate(ctx context.Context, j *store.Job) error {
	for _, sku := range j.SKUs {
		if _, err := s.stock.Count(ctx, sku); err != nil {
			return fmt.Errorf("sku %s: %w", sku, err)
		}
	}
	return nil
}

func (s *Server) estimate(ctx context.Context, j *store.Job) error {
	hist, err := s.jobs.History(ctx, j.ID)
	if err != nil {
		return err
	}
	j.History = hist
	return nil
}

func (s *Server) commitJob(_ context.Context, j *store.Job) error {
	j.State = "committed"
	return s.jobs.SetState(context.Background(), j.ID, j.State)
}

// GetJob returns a job, with its history when asked for.
func (s *Server) GetJob(ctx context.Context, req *jobspb.JobRequest) (*jobspb.Job, error) {
	fetch := s.jobs.Load
	if req.GetFull() {
		fetch = s.loadWithHistory
	}
	job, err := fetch(ctx, req.GetId()) // BUG: ctxbackground
	if err != nil {
		return nil, err
	}
	return toProto(job), nil
}

func (s *Server) loadWithHistory(_ context.Context, id string) (store.Job, error) {
	ctx, cancel := context.WithTimeout(context.Background(), historyBudget)
	defer cancel()
	job, err := s.jobs.Load(ctx, id)
	if err != nil {
		return job, err
	}
	job.History, err = s.jobs.History(ctx, id)
	return job, err
}

// PeekJob returns a job, from the primary when asked for.
func (s *Server) PeekJob(ctx context.Context, req *jobspb.JobRequest) (*jobspb.Job, error) {
	pick := s.jobs.Load
	if req.GetFull() {
		pick = s.jobs.LoadPrimary
	}
	job, err := pick(ctx, req.GetId()) // OK: both branches use their ctx
	if err != nil {
		return nil, err
	}
	return toProto(job), nil
}

type hooks struct {
	before func(ctx context.Context, id string) error
	after  func(ctx context.Context, id string) error
}

// RetryJob queues a job again, journaling the attempt around it.
func (s *Server) RetryJob(ctx context.Context, req *jobspb.JobRequest) (*jobspb.Job, error) {
	h := hooks{before: s.recordAttempt, after: s.recordOutcome}
	if err := h.before(ctx, req.GetId()); err != nil { // OK: the before field only ever holds recordAttempt
		return nil, err
	}
	if err := s.queue.Push(ctx, "retry", req.GetId()); err != nil {
		return nil, err
	}
	if err := h.after(ctx, req.GetId()); err != nil { // BUG: ctxbackground
		return nil, err
	}
	return &jobspb.Job{Id: req.GetId(), State: "queued"}, nil
}

func (s *Server) recordAttempt(ctx context.Context, id string) error {
	return s.jobs.AppendLog(ctx, id, []string{"retry requested"})
}

func (s *Server) recordOutcome(_ context.Context, id string) error {
	return s.jobs.AppendLog(context.Background(), id, []string{"retry queued"})
}

// FinishJob marks a job done and runs the completion hook of its kind.
func (s *Server) FinishJob(ctx context.Context, req *jobspb.JobRequest) (*jobspb.Job, error) {
	if err := s.jobs.SetState(ctx, req.GetId(), "done"); err != nil {
		return nil, err
	}
	if hook, ok := s.onDone[req.GetKind()]; ok {
		go hook(context.WithoutCancel(ctx), req.GetId())
		// ^BUG: detach
	}
	return &jobspb.Job{Id: req.GetId(), Kind: req.GetKind(), State: "done"}, nil
}

func (s *Server) exportDone(ctx context.Context, id string) error {
	return s.queue.Push(ctx, "export", id)
}

func (s *Server) restockDone(ctx context.Context, id string) error {
	job, err := s.jobs.Load(ctx, id)
	if err != nil {
		return err
	}
	for _, sku := range job.SKUs {
		if err := s.stock.Unhold(ctx, sku, id); err != nil {
			return err
		}
	}
	return nil
}
