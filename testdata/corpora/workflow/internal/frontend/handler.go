package frontend

import (
	"context"
	"fmt"
	"hash/fnv"
	"sync"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	frontendv1 "example.test/workflow/gen/frontend/v1"
	historyv1 "example.test/workflow/gen/history/v1"
	matchingv1 "example.test/workflow/gen/matching/v1"
	"example.test/workflow/internal/obs"
	"example.test/workflow/internal/persistence"
)

var started = obs.NewCounter("workflows_started")

// Handler serves the public API.
type Handler struct {
	frontendv1.UnimplementedWorkflowServiceServer
	baseCtx         context.Context
	history         historyv1.HistoryServiceClient
	matching        matchingv1.MatchingServiceClient
	store           *persistence.Store
	shardCount      int32
	longPollTimeout time.Duration
	tailRoom        time.Duration
	mu              sync.Mutex
	watchers        map[string]context.CancelFunc
	refresher       lifecycle
	version         string
}

// NewHandler makes a handler; ctx is the process lifetime.
func NewHandler(ctx context.Context, h historyv1.HistoryServiceClient, m matchingv1.MatchingServiceClient, store *persistence.Store) *Handler {
	return &Handler{baseCtx: ctx, history: h, matching: m, store: store, shardCount: 16, longPollTimeout: time.Minute, tailRoom: time.Second, watchers: map[string]context.CancelFunc{}}
}

// Register registers the handler.
func (h *Handler) Register(s *grpc.Server) { frontendv1.RegisterWorkflowServiceServer(s, h) }

func (h *Handler) shardOf(wf string) int32 {
	f := fnv.New32a()
	f.Write([]byte(wf))
	return int32(f.Sum32() % uint32(h.shardCount))
}

// StartWorkflow records the start event.
func (h *Handler) StartWorkflow(ctx context.Context, req *frontendv1.StartWorkflowRequest) (*frontendv1.StartWorkflowResponse, error) {
	if h.version == "" {
		h.version = fmt.Sprint(h.store.ClusterID(context.Background())) // OK: ctxbackground — first use of a field the branch sets, and ClusterID runs once
	}
	started.Add(ctx, 1, req.GetNamespace())
	resp, err := h.history.AppendEvents(ctx, &historyv1.AppendEventsRequest{ShardId: h.shardOf(req.GetWorkflowId()), WorkflowId: req.GetWorkflowId(),
		Events: []*historyv1.Event{{Id: 1, Type: "WorkflowExecutionStarted", Data: req.GetInput()}}})
	if err != nil {
		return nil, err
	}
	vctx := obs.Detached(ctx) // OK: ctxbackground — documented helper detaching by hand
	go func() {
		wctx, cancel := context.WithTimeout(vctx, 3*time.Second)
		defer cancel()
		_ = h.store.WriteVisibility(wctx, req.GetNamespace(), req.GetWorkflowId(), "running")
	}()
	// the audit row must be written even if the client gives up after the start was recorded
	actx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 2*time.Second) // OK: detach — bounded and with a reason
	go func() {
		defer cancel()
		_ = h.store.WriteVisibility(actx, "audit", req.GetWorkflowId(), "started")
	}()
	return &frontendv1.StartWorkflowResponse{RunId: fmt.Sprint(resp.GetLastEventId())}, nil
}

// SignalWorkflow appends a signal event.
func (h *Handler) SignalWorkflow(ctx context.Context, req *frontendv1.SignalWorkflowRequest) (*frontendv1.SignalWorkflowResponse, error) {
	ctx, span := obs.StartLinked(ctx, "SignalWorkflow") // BUG: ctxbackground — the helper returns a root the handler works with
	defer span.End()
	_, err := h.history.AppendEvents(ctx, &historyv1.AppendEventsRequest{ShardId: h.shardOf(req.GetWorkflowId()), WorkflowId: req.GetWorkflowId(),
		Events: []*historyv1.Event{{Type: "WorkflowExecutionSignaled", Data: req.GetPayload()}}})
	if err != nil {
		return nil, err
	}
	return &frontendv1.SignalWorkflowResponse{}, nil
}

// QueryWorkflow answers a query from the workflow's history.
func (h *Handler) QueryWorkflow(ctx context.Context, req *frontendv1.QueryWorkflowRequest) (*frontendv1.QueryWorkflowResponse, error) {
	go h.warmHistory(ctx, req.GetWorkflowId())
	go h.recordQuery(context.WithoutCancel(ctx), req)
	// ^BUG: detach — the query record has neither a bound nor a reason
	resp, err := h.history.GetHistory(ctx, &historyv1.GetHistoryRequest{ShardId: h.shardOf(req.GetWorkflowId()), WorkflowId: req.GetWorkflowId()})
	if err != nil {
		return nil, status.Error(codes.Internal, "query: "+err.Error()) // BUG: statusmask — the history call's deadline becomes Internal
	}
	return &frontendv1.QueryWorkflowResponse{Result: []byte(fmt.Sprint(len(resp.GetEvents())))}, nil
}

func (h *Handler) warmHistory(ctx context.Context, wf string) {
	for i := 0; i < 5; i++ {
		if _, err := h.history.GetHistory(ctx, &historyv1.GetHistoryRequest{ShardId: h.shardOf(wf), WorkflowId: wf}); err == nil {
			return
		}
		time.Sleep(100 * time.Millisecond) // BUG: ctxless — a goroutine the handler starts retries without checking ctx
	}
}

func (h *Handler) recordQuery(ctx context.Context, req *frontendv1.QueryWorkflowRequest) {
	_ = h.store.WriteVisibility(ctx, req.GetNamespace(), req.GetWorkflowId(), "queried")
}

// DescribeWorkflow describes a workflow.
func (h *Handler) DescribeWorkflow(ctx context.Context, req *frontendv1.DescribeWorkflowRequest) (*frontendv1.DescribeWorkflowResponse, error) {
	obs.L.Info(h.baseCtx, "describe", "wf", req.GetWorkflowId()) // OK: ctxflow — the callee only reads the ctx's values
	resp, err := h.history.DescribeMutableState(ctx, &historyv1.DescribeMutableStateRequest{ShardId: h.shardOf(req.GetWorkflowId()), WorkflowId: req.GetWorkflowId()})
	if err != nil {
		if status.Code(err) == codes.NotFound {
			return nil, err
		}
		return nil, status.Errorf(codes.Internal, "describe: %v", err) // OK: statusmask — status.Code of the error is examined
	}
	if _, err := h.store.LoadEvents(processCtx, h.shardOf(req.GetWorkflowId()), req.GetWorkflowId()); err != nil { // BUG: ctxflow — package-level process ctx
		return nil, err
	}
	return &frontendv1.DescribeWorkflowResponse{Status: resp.GetStatus(), HistoryLength: resp.GetNextEventId() - 1, Shard: fmt.Sprint(h.shardOf(req.GetWorkflowId()))}, nil
}

// PollWorkflowTask long-polls matching for a workflow task.
func (h *Handler) PollWorkflowTask(ctx context.Context, req *frontendv1.PollTaskRequest) (*frontendv1.PollTaskResponse, error) {
	pctx, cancel := context.WithTimeout(context.Background(), h.longPollTimeout) // BUG: ctxbackground — swaps the caller's poll deadline for a fresh minute
	defer cancel()
	resp, err := h.matching.PollTask(pctx, &matchingv1.PollTaskRequest{Namespace: req.GetNamespace(), TaskQueue: req.GetTaskQueue(), Identity: req.GetIdentity()})
	if err != nil {
		return nil, status.Errorf(codes.Unavailable, "poll: %v", err) // OK: statusmask — the call was made with a fresh context
	}
	return &frontendv1.PollTaskResponse{WorkflowId: resp.GetTask().GetWorkflowId(), TaskToken: []byte(resp.GetTask().GetTaskId())}, nil
}

// PollActivityTask long-polls, returning before the caller's deadline.
func (h *Handler) PollActivityTask(ctx context.Context, req *frontendv1.PollTaskRequest) (*frontendv1.PollTaskResponse, error) {
	pctx := ctx
	if dl, ok := ctx.Deadline(); ok {
		var cancel context.CancelFunc
		pctx, cancel = context.WithDeadline(ctx, dl.Add(-h.tailRoom))
		defer cancel()
	}
	resp, err := h.matching.PollTask(pctx, &matchingv1.PollTaskRequest{Namespace: req.GetNamespace(), TaskQueue: req.GetTaskQueue(), Identity: req.GetIdentity()})
	if err != nil {
		if pctx.Err() != nil && ctx.Err() == nil {
			return &frontendv1.PollTaskResponse{}, nil
		}
		return nil, status.Errorf(codes.Internal, "poll: %v", err) // OK: statusmask — ctx.Err() is examined
	}
	return &frontendv1.PollTaskResponse{WorkflowId: resp.GetTask().GetWorkflowId()}, nil
}

// RespondTaskCompleted completes a task and deletes it.
func (h *Handler) RespondTaskCompleted(ctx context.Context, req *frontendv1.RespondTaskRequest) (*frontendv1.RespondTaskResponse, error) {
	token := string(req.GetTaskToken())
	defer func() {
		dctx, cancel := context.WithTimeout(context.Background(), time.Second) // OK: ctxbackground — deferred cleanup with a bounded fresh ctx
		defer cancel()
		_ = h.store.DeleteTask(dctx, "completed", token)
	}()
	if err := h.store.WriteVisibility(ctx, "", token, "completed"); err != nil {
		uctx, cancel := context.WithTimeout(context.Background(), time.Second) // OK: ctxbackground — undo on the way out of a failure
		defer cancel()
		_ = h.store.WriteVisibility(uctx, "", token, "running")
		return nil, fmt.Errorf("respond: %w", err)
	}
	h.mu.Lock()
	if _, ok := h.watchers[token]; !ok {
		wctx, cancel := context.WithCancel(h.baseCtx)
		h.watchers[token] = cancel
		go h.watch(wctx, token) // OK: ctxflow — a child of the long-lived ctx whose cancel the server keeps by key
	}
	h.mu.Unlock()
	h.refresher.Run(h.baseCtx, time.Minute, func(ctx context.Context) {}) // OK: ctxflow — Run keeps the cancel for the lifecycle's Stop
	return &frontendv1.RespondTaskResponse{}, nil
}

func (h *Handler) watch(ctx context.Context, token string) {
	<-ctx.Done()
}
