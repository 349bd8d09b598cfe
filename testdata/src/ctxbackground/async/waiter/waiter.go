// Package waiter is a task client whose waits and watches run on goroutines of their own: the
// ctx they are given is those goroutines' lifetime. Beside them, calls that do their work
// before they return.
package waiter

import "context"

// Exit is how a task ended.
type Exit struct{ Code int }

// Runtime is the remote task runtime.
type Runtime interface {
	Wait(ctx context.Context, id string) (int, error)
	Kill(ctx context.Context, id string, sig int) error
}

// Task is a running task.
type Task interface {
	// Wait returns a channel its exit is sent on.
	Wait(ctx context.Context) (<-chan Exit, error)
	Kill(ctx context.Context, sig int) error
}

// Open returns the task id of rt.
func Open(id string, rt Runtime) Task { return &task{id: id, rt: rt} }

type task struct {
	id string
	rt Runtime
}

// Wait waits on a goroutine of its own until ctx is cancelled or the task exits.
func (t *task) Wait(ctx context.Context) (<-chan Exit, error) {
	c := make(chan Exit, 1)
	go func() {
		defer close(c)
		code, _ := t.rt.Wait(ctx, t.id)
		c <- Exit{Code: code}
	}()
	return c, nil
}

// Kill signals the task before it returns.
func (t *task) Kill(ctx context.Context, sig int) error { return t.rt.Kill(ctx, t.id, sig) }

// Job is a batch job: one of its implementations waits before it returns.
type Job interface {
	Wait(ctx context.Context) (<-chan Exit, error)
}

// Batch waits on a goroutine of its own.
type Batch struct{ Rt Runtime }

func (b *Batch) Wait(ctx context.Context) (<-chan Exit, error) {
	c := make(chan Exit, 1)
	go func(ctx context.Context) {
		code, _ := b.Rt.Wait(ctx, "batch")
		c <- Exit{Code: code}
	}(ctx)
	return c, nil
}

// Inline waits before it returns: the call is the work.
type Inline struct{ Rt Runtime }

func (i *Inline) Wait(ctx context.Context) (<-chan Exit, error) {
	code, err := i.Rt.Wait(ctx, "inline")
	c := make(chan Exit, 1)
	c <- Exit{Code: code}
	return c, err
}

// Watch follows the task's exit codes on a goroutine it starts.
func Watch(ctx context.Context, rt Runtime, id string, out chan<- int) {
	go watch(ctx, rt, id, out)
}

func watch(ctx context.Context, rt Runtime, id string, out chan<- int) {
	for ctx.Err() == nil {
		code, err := rt.Wait(ctx, id)
		if err != nil {
			return
		}
		out <- code
	}
}

// Prepared starts a goroutine too, but the wait in its argument runs before it does.
func Prepared(ctx context.Context, rt Runtime, id string, out chan<- int) {
	go send(out, first(ctx, rt, id))
}

func first(ctx context.Context, rt Runtime, id string) int {
	code, _ := rt.Wait(ctx, id)
	return code
}

func send(out chan<- int, code int) { out <- code }

// Deferred keeps its ctx in a literal it runs itself, later: not a goroutine.
func Deferred(ctx context.Context, rt Runtime, id string) func() {
	return func() { _, _ = rt.Wait(ctx, id) }
}
