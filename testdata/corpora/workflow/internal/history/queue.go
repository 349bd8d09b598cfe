package history

import (
	"context"
	"time"

	matchingv1 "example.test/workflow/gen/matching/v1"
	"example.test/workflow/internal/obs"
)

// TransferTask moves a workflow task from history to matching.
type TransferTask struct {
	Namespace  string
	Queue      string
	WorkflowID string
	TaskID     string
}

// TransferQueue processes transfer tasks after the request that created them.
type TransferQueue struct {
	in          chan TransferTask
	matching    matchingv1.MatchingServiceClient
	taskTimeout time.Duration
	ctx         context.Context
	cancel      context.CancelFunc
	done        chan struct{}
}

// NewTransferQueue makes a queue; Start runs it.
func NewTransferQueue(m matchingv1.MatchingServiceClient) *TransferQueue {
	return &TransferQueue{in: make(chan TransferTask, 1024), matching: m, taskTimeout: 5 * time.Second, done: make(chan struct{})}
}

// Start starts the processor with a lifetime of its own.
func (q *TransferQueue) Start() {
	q.ctx, q.cancel = context.WithCancel(context.Background()) // OK: ctxbackground — processor lifetime, not a request
	go q.run()
}

// Enqueue hands t to the processor.
func (q *TransferQueue) Enqueue(t TransferTask) {
	select {
	case q.in <- t:
	default:
		obs.L.Error(context.Background(), "transfer queue full", "wf", t.WorkflowID) // OK: ctxbackground — a root used only to log
	}
}

func (q *TransferQueue) run() {
	defer close(q.done)
	for {
		select {
		case <-q.ctx.Done():
			return
		case t := <-q.in:
			q.process(q.ctx, t)
		}
	}
}

func (q *TransferQueue) process(ctx context.Context, t TransferTask) {
	tctx, cancel := context.WithTimeout(ctx, q.taskTimeout)
	defer cancel()
	_, err := q.matching.AddTask(tctx, &matchingv1.AddTaskRequest{ // OK: missingdeadline — each task gets taskTimeout
		Namespace: t.Namespace, TaskQueue: t.Queue,
		Task: &matchingv1.Task{TaskId: t.TaskID, WorkflowId: t.WorkflowID},
	})
	if err != nil {
		obs.L.Error(ctx, "transfer", "err", err)
	}
}

// Stop stops the processor.
func (q *TransferQueue) Stop() {
	q.cancel()
	<-q.done
}
