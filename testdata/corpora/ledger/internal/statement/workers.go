package statement

import (
	"context"
	"errors"
	"time"

	"golang.org/x/sync/errgroup"

	"example.test/ledger/internal/obs"
	"example.test/ledger/internal/webhook"
)

// ErrQueueClosed is returned by Enqueue after the workers have stopped.
var ErrQueueClosed = errors.New("statement: queue closed")

// Queue hands statement jobs to a fixed pool of workers. Jobs deliberately
// outlive the RPC that enqueued them: ExportStatement returns as soon as the
// job is accepted and the partner is notified by webhook when it is ready.
type Queue struct {
	jobs       chan Job
	gen        *Generator
	hook       *webhook.Client
	jobTimeout time.Duration
	closed     chan struct{}
}

// NewQueue returns a queue with the given buffer size.
func NewQueue(gen *Generator, hook *webhook.Client, size int) *Queue {
	return &Queue{
		jobs:       make(chan Job, size),
		gen:        gen,
		hook:       hook,
		jobTimeout: 2 * time.Minute,
		closed:     make(chan struct{}),
	}
}

// Enqueue hands j to the workers, waiting at most until ctx is done.
func (q *Queue) Enqueue(ctx context.Context, j Job) error {
	select {
	case q.jobs <- j:
		obs.C("statement_enqueued").Inc()
		return nil
	case <-q.closed:
		return ErrQueueClosed
	case <-ctx.Done():
		return context.Cause(ctx)
	}
}

// Run processes jobs with n workers until ctx is cancelled. ctx is the
// process lifetime, not a request.
func (q *Queue) Run(ctx context.Context, n int) error {
	defer close(q.closed)
	g, gctx := errgroup.WithContext(ctx)
	for range n {
		g.Go(func() error {
			for {
				select {
				case <-gctx.Done():
					return nil
				case j := <-q.jobs:
					q.process(gctx, j)
				}
			}
		})
	}
	return g.Wait()
}

func (q *Queue) process(ctx context.Context, j Job) {
	ctx, cancel := context.WithTimeout(ctx, q.jobTimeout)
	defer cancel()
	start := time.Now()
	defer obs.Since("statement_render", start)

	body, err := q.gen.Render(ctx, j)
	if err != nil {
		obs.L(ctx).Error("render statement", "job", j.ID, "err", err)
		obs.C("statement_failed").Inc()
		return
	}
	if err := q.hook.Send(ctx, "statement.ready", body); err != nil {
		obs.L(ctx).Warn("notify statement", "job", j.ID, "err", err)
	}
}
