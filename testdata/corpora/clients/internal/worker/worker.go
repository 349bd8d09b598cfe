// Package worker consumes fulfillment jobs from the job queue.
package worker

import (
	"context"
	"errors"
	"log/slog"
	"sync"
	"time"

	"golang.org/x/sync/errgroup"

	jobsv1 "example.test/clients/gen/jobs/v1"
	"example.test/clients/pkg/sdk"
)

// Options configure a Worker.
type Options struct {
	Queue             string
	Concurrency       int
	PollWait          time.Duration
	LeaseTTL          time.Duration
	HeartbeatEvery    time.Duration
	DefaultJobTimeout time.Duration
	AckTimeout        time.Duration
}

func (o *Options) setDefaults() {
	if o.Concurrency <= 0 {
		o.Concurrency = 4
	}
	if o.PollWait <= 0 {
		o.PollWait = 20 * time.Second
	}
	if o.LeaseTTL <= 0 {
		o.LeaseTTL = 2 * time.Minute
	}
	if o.HeartbeatEvery <= 0 {
		o.HeartbeatEvery = o.LeaseTTL / 3
	}
	if o.DefaultJobTimeout <= 0 {
		o.DefaultJobTimeout = time.Minute
	}
	if o.AckTimeout <= 0 {
		o.AckTimeout = 3 * time.Second
	}
}

// Worker leases jobs and runs them on a fixed number of goroutines.
type Worker struct {
	sdk  *sdk.Client
	opts Options
	log  *slog.Logger

	mu       sync.Mutex
	inflight map[string]*jobsv1.Job // by lease ID
}

// New returns a Worker; call Run to start it.
func New(c *sdk.Client, opts Options, log *slog.Logger) *Worker {
	opts.setDefaults()
	return &Worker{sdk: c, opts: opts, log: log, inflight: map[string]*jobsv1.Job{}}
}

// Run leases and runs jobs until ctx is cancelled.
func (w *Worker) Run(ctx context.Context) error {
	jobs := make(chan *jobsv1.Job)
	g, ctx := errgroup.WithContext(ctx)
	g.Go(func() error {
		defer close(jobs)
		return w.poll(ctx, jobs)
	})
	for range w.opts.Concurrency {
		g.Go(func() error {
			for job := range jobs {
				w.process(ctx, job)
			}
			return nil
		})
	}
	g.Go(func() error { return w.heartbeat(ctx) })
	if err := g.Wait(); err != nil && !errors.Is(err, context.Canceled) {
		return err
	}
	return nil
}

func (w *Worker) poll(ctx context.Context, out chan<- *jobsv1.Job) error {
	for {
		leased, err := w.sdk.LeaseJobs(ctx, w.opts.Queue, int32(w.opts.Concurrency), w.opts.PollWait) // OK
		if err != nil {
			if ctx.Err() != nil {
				return ctx.Err()
			}
			w.log.Warn("lease failed", "queue", w.opts.Queue, "err", err)
			select {
			case <-ctx.Done():
				return ctx.Err()
			case <-time.After(2 * time.Second):
			}
			continue
		}
		for _, job := range leased {
			w.track(job)
			select {
			case out <- job:
			case <-ctx.Done():
				return ctx.Err()
			}
		}
	}
}

// heartbeat keeps the leases of running jobs alive.
func (w *Worker) heartbeat(ctx context.Context) error {
	t := time.NewTicker(w.opts.HeartbeatEvery)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-t.C:
		}
		for _, leaseID := range w.inflightLeases() {
			if err := w.sdk.ExtendLease(ctx, leaseID, w.opts.LeaseTTL); err != nil {
				w.log.Warn("lease not extended", "lease", leaseID, "err", err)
			}
		}
	}
}

func (w *Worker) process(ctx context.Context, job *jobsv1.Job) {
	defer w.untrack(job)
	timeout := w.opts.DefaultJobTimeout
	if d := job.GetTimeout(); d != nil && d.AsDuration() > 0 {
		timeout = d.AsDuration()
	}
	jctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	w.handle(jctx, job) // OK
}

// Drain hands back the leases of jobs that were leased but never finished.
// Call it after Run has returned.
func (w *Worker) Drain() {
	ctx := context.Background() // OK
	for _, leaseID := range w.inflightLeases() {
		if err := w.sdk.Release(ctx, leaseID); err != nil { // BUG: missingdeadline
			w.log.Warn("lease not released", "lease", leaseID, "err", err)
		}
	}
}

func (w *Worker) track(job *jobsv1.Job) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.inflight[job.GetLeaseId()] = job
}

func (w *Worker) untrack(job *jobsv1.Job) {
	w.mu.Lock()
	defer w.mu.Unlock()
	delete(w.inflight, job.GetLeaseId())
}

func (w *Worker) inflightLeases() []string {
	w.mu.Lock()
	defer w.mu.Unlock()
	ids := make([]string, 0, len(w.inflight))
	for id := range w.inflight {
		ids = append(ids, id)
	}
	return ids
}
