// Package worker runs jobs after the request that queued them has finished.
package worker

import (
	"context"
	"log/slog"
	"sync"
)

// Job receives the pool's lifetime context, not the submitter's.
type Job func(ctx context.Context)

type Pool struct {
	jobs   chan Job
	ctx    context.Context
	cancel context.CancelFunc
	wg     sync.WaitGroup
	log    *slog.Logger
}

func New(parent context.Context, workers, queue int, log *slog.Logger) *Pool {
	ctx, cancel := context.WithCancel(parent)
	p := &Pool{jobs: make(chan Job, queue), ctx: ctx, cancel: cancel, log: log}
	for range workers {
		p.wg.Go(p.loop)
	}
	return p
}

func (p *Pool) loop() {
	for {
		select {
		case <-p.ctx.Done():
			return
		case j := <-p.jobs:
			p.run(j)
		}
	}
}

func (p *Pool) run(j Job) {
	defer func() {
		if r := recover(); r != nil {
			p.log.ErrorContext(p.ctx, "job panicked", "panic", r)
		}
	}()
	j(p.ctx)
}

// TrySubmit enqueues j without blocking; it reports false if the queue is full.
func (p *Pool) TrySubmit(j Job) bool {
	select {
	case p.jobs <- j:
		return true
	default:
		return false
	}
}

// Stop cancels running jobs and waits for workers, bounded by ctx.
func (p *Pool) Stop(ctx context.Context) error {
	p.cancel()
	done := make(chan struct{})
	go func() {
		p.wg.Wait()
		close(done)
	}()
	select {
	case <-done:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}
