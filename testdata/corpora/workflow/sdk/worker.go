package sdk

import (
	"context"
	"sync"
	"time"

	frontendv1 "example.test/workflow/gen/frontend/v1"
)

// Handler runs one task.
type Handler func(ctx context.Context, input []byte) ([]byte, error)

// Worker polls a task queue and runs tasks.
type Worker struct {
	svc         frontendv1.WorkflowServiceClient
	queue       string
	pollTimeout time.Duration
	handler     Handler
	ctx         context.Context
	cancel      context.CancelFunc
	wg          sync.WaitGroup
}

// NewWorker makes a worker.
func NewWorker(c *Client, queue string, h Handler) *Worker {
	ctx, cancel := context.WithCancel(context.Background()) // OK: ctxbackground — worker lifetime, no request scope
	return &Worker{svc: c.svc, queue: queue, pollTimeout: 70 * time.Second, handler: h, ctx: ctx, cancel: cancel}
}

// Start starts the pollers.
func (w *Worker) Start(n int) {
	for i := 0; i < n; i++ {
		w.wg.Add(1)
		go w.poll()
	}
}

func (w *Worker) poll() {
	defer w.wg.Done()
	for w.ctx.Err() == nil {
		pctx, cancel := context.WithTimeout(w.ctx, w.pollTimeout)
		resp, err := w.svc.PollWorkflowTask(pctx, &frontendv1.PollTaskRequest{TaskQueue: w.queue}) // OK: missingdeadline — each poll is bounded
		cancel()
		if err != nil || len(resp.GetTaskToken()) == 0 {
			continue
		}
		out, herr := w.handler(w.ctx, resp.GetInput())
		w.respond(resp.GetTaskToken(), out, herr)
	}
}

func (w *Worker) respond(token, out []byte, herr error) {
	req := &frontendv1.RespondTaskRequest{TaskToken: token, Result: out}
	if herr != nil {
		req.Failure = herr.Error()
	}
	ctx := context.Background()
	_, _ = w.svc.RespondTaskCompleted(ctx, req) // BUG: missingdeadline — the completion waits forever on a hung frontend
}

// Stop stops the worker.
func (w *Worker) Stop() {
	w.cancel()
	w.wg.Wait()
}
