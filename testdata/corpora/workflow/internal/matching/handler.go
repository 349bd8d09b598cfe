package matching

import (
	"context"
	"fmt"

	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	matchingv1 "example.test/workflow/gen/matching/v1"
	"example.test/workflow/internal/obs"
	"example.test/workflow/internal/persistence"
)

var (
	syncMatches = obs.NewCounter("sync_match")
	forwards    = obs.NewCounter("forwarded")
)

// Handler serves the matching service.
type Handler struct {
	matchingv1.UnimplementedMatchingServiceServer
	queues *queueManager
	fwd    *forwarder
	parent func(partition int32) string
}

// NewHandler makes a handler.
func NewHandler(store *persistence.Store, parent func(int32) string) *Handler {
	return &Handler{queues: &queueManager{queues: map[string]*taskQueue{}, store: store}, fwd: &forwarder{conns: map[string]*grpc.ClientConn{}}, parent: parent}
}

// Register registers the handler.
func (h *Handler) Register(s *grpc.Server) { matchingv1.RegisterMatchingServiceServer(s, h) }

// AddTask tries a sync match, then forwards to the parent partition, then persists.
func (h *Handler) AddTask(ctx context.Context, req *matchingv1.AddTaskRequest) (*matchingv1.AddTaskResponse, error) {
	tq := h.queues.get(context.Background(), req.GetTaskQueue()) // OK: ctxbackground — only logs with it, on first use
	if tq.trySyncMatch(ctx, req.GetTask()) {
		syncMatches.Add(context.Background(), 1, req.GetNamespace()) // OK: ctxbackground — a metric record
		return &matchingv1.AddTaskResponse{SyncMatched: true}, nil
	}
	if req.GetPartition() > 0 && !req.GetForwarded() {
		c, err := h.fwd.client(context.Background(), h.parent(req.GetPartition())) // OK: ctxbackground — a dial kept by the connection cache
		if err == nil {
			fr := &matchingv1.AddTaskRequest{Namespace: req.GetNamespace(), TaskQueue: req.GetTaskQueue(), Partition: parentOf(req.GetPartition()), Task: req.GetTask(), Forwarded: true}
			if resp, err := c.AddTask(ctx, fr); err == nil && resp.GetSyncMatched() { // OK: missingdeadline — request scope inherits the caller's deadline
				forwards.Add(ctx, 1)
				return resp, nil
			}
		}
	}
	t := req.GetTask()
	tq.writer.Append(persistence.Task{Queue: req.GetTaskQueue(), ID: t.GetTaskId(), WorkflowID: t.GetWorkflowId(), Input: t.GetInput()})
	return &matchingv1.AddTaskResponse{}, nil
}

// PollTask long-polls until a task arrives or the caller's deadline passes.
func (h *Handler) PollTask(ctx context.Context, req *matchingv1.PollTaskRequest) (*matchingv1.PollTaskResponse, error) {
	tq := h.queues.get(ctx, req.GetTaskQueue())
	if req.GetPartition() > 0 {
		c, err := h.fwd.client(ctx, h.parent(req.GetPartition())) // OK: ctxflow — dial helper keeping the connection
		if err != nil {
			return nil, status.Errorf(codes.Unavailable, "parent: %v", err) // OK?: statusmask — only a dial on first use sees the request ctx; a dial failure is no deadline of the request's RPC work, but grpc.DialContext does take ctx
		}
		go func() {
			resp, err := c.PollTask(context.Background(), &matchingv1.PollTaskRequest{Namespace: req.GetNamespace(), TaskQueue: req.GetTaskQueue(), Partition: parentOf(req.GetPartition())}) // BUG: ctxbackground — the forwarded poll outlives the caller
			if err == nil && resp.GetTask() != nil {
				select {
				case tq.tasks <- resp.GetTask():
				case <-ctx.Done():
				}
			}
		}()
	}
	select {
	case t := <-tq.tasks:
		return &matchingv1.PollTaskResponse{Task: t}, nil
	case <-ctx.Done():
		return &matchingv1.PollTaskResponse{}, nil
	}
}

// DescribeQueue is used by the admin service in-process.
func (h *Handler) DescribeQueue(ctx context.Context, name string) (string, error) {
	tq := h.queues.get(ctx, name)
	return fmt.Sprintf("%s backlog=%d", tq.name, len(tq.writer.in)), nil
}
