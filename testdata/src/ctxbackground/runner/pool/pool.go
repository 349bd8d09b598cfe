// Package pool runs tasks for its callers: on a manager's workers, each with a child of the
// manager's lifetime; or before it returns, with a ctx it holds or is given.
package pool

import "context"

// Executor runs functions on workers; its implementations are the user's, out of sight.
type Executor interface {
	Go(f func())
}

// Manager runs tasks until it is stopped.
type Manager struct {
	ctx  context.Context
	exec Executor
}

// New returns a manager whose tasks live as long as ctx.
func New(ctx context.Context, exec Executor) *Manager {
	return &Manager{ctx: ctx, exec: exec}
}

// Submit hands task to the executor; it runs with a child of the manager's ctx.
func (m *Manager) Submit(id string, task func(ctx context.Context) error) {
	taskCtx, cancel := context.WithCancel(m.ctx)
	m.exec.Go(func() {
		defer cancel()
		_ = task(taskCtx)
	})
}

// RunNow runs task before it returns, with the manager's ctx.
func (m *Manager) RunNow(task func(ctx context.Context) error) error { return task(m.ctx) }

// Retrier retries with the ctx it was made with.
type Retrier struct{ ctx context.Context }

// NewRetrier returns a retrier working within ctx.
func NewRetrier(ctx context.Context) *Retrier { return &Retrier{ctx: ctx} }

// Do runs f, up to three times, before it returns.
func (r *Retrier) Do(f func(ctx context.Context) error) error {
	var err error
	for i := 0; i < 3; i++ {
		if err = f(r.ctx); err == nil {
			return nil
		}
	}
	return err
}

// Job names a piece of work and the ctx it is done within.
type Job struct {
	Ctx  context.Context
	Name string
}

// RunJob runs f with the job's ctx.
func RunJob(j Job, f func(ctx context.Context) error) error { return f(j.Ctx) }

// Task is a piece of work given the ctx to do it within.
type Task func(ctx context.Context) error

// RunTask runs t with the retrier's ctx before it returns.
func (r *Retrier) RunTask(t Task) error { return t(r.ctx) }
