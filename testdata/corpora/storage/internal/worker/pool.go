package worker

import (
	"context"
	"log/slog"
	"sync"
)

// Task is a unit of background work.
type Task func(ctx context.Context)

// Pool runs tasks on a fixed number of goroutines, under the pool's own
// lifetime context.
type Pool struct {
	ctx    context.Context
	cancel context.CancelFunc
	tasks  chan Task
	wg     sync.WaitGroup
}

// NewPool starts n workers.
func NewPool(n, queue int) *Pool {
	ctx, cancel := context.WithCancel(context.Background())
	p := &Pool{ctx: ctx, cancel: cancel, tasks: make(chan Task, queue)}
	for i := 0; i < n; i++ {
		p.wg.Add(1)
		go p.work()
	}
	return p
}

func (p *Pool) work() {
	defer p.wg.Done()
	for {
		select {
		case <-p.ctx.Done():
			return
		case t := <-p.tasks:
			t(p.ctx)
		}
	}
}

// Submit queues t; it reports false when the queue is full.
func (p *Pool) Submit(t Task) bool {
	select {
	case p.tasks <- t:
		return true
	default:
		slog.Warn("worker pool: queue full, dropping task")
		return false
	}
}

// Stop cancels running tasks and waits for the workers.
func (p *Pool) Stop() {
	p.cancel()
	p.wg.Wait()
}

// Drain stops the workers, then runs the tasks still queued on the calling
// goroutine, with the pool's values but no cancellation.
func (p *Pool) Drain() {
	p.Stop()
	dctx := context.WithoutCancel(p.ctx) // OK: detach — detaches a component's lifetime ctx, not a request's
	for {
		select {
		case t := <-p.tasks:
			t(dctx)
		default:
			return
		}
	}
}
