package server

import (
	"context"
	"errors"
	"fmt"
	"time"

	"example.test/controlplane/internal/plugin"
	"example.test/controlplane/internal/store"
)

var errDegraded = errors.New("server degraded")

// ValidationError is a job spec the server refuses.
type ValidationError struct{ Reason string }

func (e *ValidationError) Error() string { return "invalid job: " + e.Reason }

const (
	saveCheckpoint = "checkpoint"
	saveFlush      = "flush"
)

// save records j. Checkpoints only refresh the read cache; flushes, which the
// reconciler issues, write through to the database and must complete.
func (s *Server) save(ctx context.Context, j *store.Job, purpose string) error {
	s.cache.Remember(ctx, j)
	if purpose != saveFlush {
		return nil
	}
	return s.store.PutJob(context.Background(), j)
}

// failpoint is rewritten by the fault-injection build; in normal builds the
// body of fn is never run.
func failpoint(name string, fn func()) {}

func retry(ctx context.Context, attempts int, fn func(ctx context.Context) error) error {
	backoff := 100 * time.Millisecond
	var err error
	for i := 0; i < attempts; i++ {
		if err = fn(ctx); err == nil {
			return nil
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(backoff):
			backoff *= 2
		}
	}
	return err
}

// opContext returns the ctx an operation was started with, for operations
// built before contexts were threaded everywhere.
func opContext(ctx context.Context) context.Context {
	if ctx == nil {
		return context.Background()
	}
	return ctx
}

func (s *Server) checkImage(ctx context.Context, j *store.Job) error {
	if j.Image == "" {
		return &ValidationError{Reason: "image is required"}
	}
	return nil
}

// checkQuota refuses jobs beyond the namespace's quota.
func (s *Server) checkQuota(ctx context.Context, j *store.Job) error {
	// Counting must see every job, even when the caller is in a hurry.
	jobs, err := s.store.ListJobs(context.Background(), j.Namespace)
	if err != nil {
		return err
	}
	if len(jobs) >= 1000 {
		return &ValidationError{Reason: fmt.Sprintf("namespace %s is over quota", j.Namespace)}
	}
	return nil
}

// evaluator evaluates placement constraints; evaluators are pooled and each
// is lent the ctx of the request it serves.
type evaluator struct {
	store *store.SQLStore
	ctx   context.Context
}

func (e *evaluator) SetContext(ctx context.Context) { e.ctx = ctx }

func (e *evaluator) Eval(j *store.Job) (bool, error) {
	others, err := e.store.ListJobs(e.ctx, j.Namespace)
	if err != nil {
		return false, err
	}
	for _, o := range others {
		if o.Node != "" && o.Image == j.Image && o.State == "running" {
			return true, nil
		}
	}
	return len(others) < 500, nil
}

func (s *Server) checkConstraints(ctx context.Context, j *store.Job) (bool, error) {
	ev := s.evaluators.Get().(*evaluator)
	ev.SetContext(ctx)
	ok, err := ev.Eval(j)
	ev.SetContext(context.Background()) // idle evaluators hold no request's ctx
	s.evaluators.Put(ev)
	return ok, err
}

// place starts j on a driver; it is handed to the store's CreateJob.
func (s *Server) place(ctx context.Context, j *store.Job) error {
	ctx = opContext(ctx)
	drv, err := s.catalog.Get(ctx, j.Driver)
	if err != nil {
		return err
	}
	if _, err := drv.StartTask(ctx, plugin.TaskSpec{ID: j.ID, Image: j.Image, Args: j.Args}); err != nil {
		return err
	}
	s.placements.Store(j.ID, "local")
	return nil
}

// reevaluate recomputes a job's placement; run by the dispatcher's Kick.
func (s *Server) reevaluate(ctx context.Context, id string) error {
	j, err := s.store.GetJob(ctx, id)
	if err != nil {
		return err
	}
	return s.place(ctx, j)
}

// publishCancelled records the cancellation and tells the driver.
func (s *Server) publishCancelled(ctx context.Context, j *store.Job) {
	j.State = "cancelled"
	if err := s.store.PutJob(ctx, j); err != nil {
		s.log.Error(ctx, "publish cancelled", err, "job", j.ID)
	}
}

// fanout pushes a job event to the nodes' assignment feeds.
func (s *Server) fanout(ctx context.Context, j *store.Job) {
	ctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	if err := s.store.PutJob(ctx, j); err != nil {
		s.log.Warn(ctx, "fanout", "job", j.ID, "err", err)
	}
}

// ownerOf returns the node that owns j's task, if it is placed.
func (s *Server) ownerOf(ctx context.Context, j *store.Job) string {
	if j.Node != "" {
		return j.Node
	}
	if v, ok := s.placements.Load(j.ID); ok {
		return v.(string)
	}
	return ""
}

// dumpState logs the whole store; only called under the debug constant.
func (s *Server) dumpState(ctx context.Context) {
	jobs, _ := s.store.ListJobs(ctx, "default")
	for _, j := range jobs {
		s.log.Debug(ctx, "state", "job", j.ID, "state", j.State)
	}
}
