package store

import (
	"context"
	"errors"
	"sync"
	"time"
)

// ErrQueueClosed is returned by Enqueue after Close.
var ErrQueueClosed = errors.New("dispatch queue closed")

// Task is one unit of work handed to the dispatcher. It runs after the
// request that created it has returned.
type Task struct {
	JobID    string
	Run      func(ctx context.Context) error
	ctx      context.Context
	CancelFn func(err error)
}

// Dispatcher is a bounded queue drained by a fixed pool of workers.
type Dispatcher struct {
	queue   chan *Task
	workers int
	wg      sync.WaitGroup

	mu      sync.Mutex
	running map[string]*Task
}

func NewDispatcher(size, workers int) *Dispatcher {
	return &Dispatcher{queue: make(chan *Task, size), workers: workers, running: map[string]*Task{}}
}

// NewTask prepares a task for jobID. The task gets a lifetime of its own,
// ended by Cancel, since it outlives the request that submitted it.
func NewTask(jobID string, run func(ctx context.Context) error) *Task {
	tctx, cancel := context.WithCancelCause(context.Background())
	return &Task{JobID: jobID, Run: run, ctx: tctx, CancelFn: func(err error) { cancel(err) }}
}

// Enqueue hands t to the workers, waiting for room until ctx is done.
func (d *Dispatcher) Enqueue(ctx context.Context, t *Task) error {
	select {
	case d.queue <- t:
		d.mu.Lock()
		d.running[t.JobID] = t
		d.mu.Unlock()
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// Cancel cancels the queued or running task of jobID.
func (d *Dispatcher) Cancel(jobID string, reason error) bool {
	d.mu.Lock()
	t, ok := d.running[jobID]
	d.mu.Unlock()
	if ok {
		t.CancelFn(reason)
	}
	return ok
}

// Run starts the workers and blocks until ctx is done.
func (d *Dispatcher) Run(ctx context.Context) {
	for i := 0; i < d.workers; i++ {
		d.wg.Add(1)
		go func() {
			defer d.wg.Done()
			for {
				select {
				case <-ctx.Done():
					return
				case t := <-d.queue:
					_ = t.Run(t.ctx)
					d.mu.Lock()
					delete(d.running, t.JobID)
					d.mu.Unlock()
				}
			}
		}()
	}
	<-ctx.Done()
	d.wg.Wait()
}

// Kick schedules an asynchronous re-evaluation of the job's placement; many
// requests may kick the same job, the evaluation is shared.
func (d *Dispatcher) Kick(jobID string, eval func(ctx context.Context, id string) error) {
	go func() {
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		defer cancel()
		_ = eval(ctx, jobID)
	}()
}
