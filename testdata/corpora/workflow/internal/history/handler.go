package history

import (
	"context"
	"errors"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	historyv1 "example.test/workflow/gen/history/v1"
	"example.test/workflow/internal/obs"
	"example.test/workflow/internal/persistence"
)

var appendLatency = obs.NewHistogram("history_append_latency")

// Handler serves the history service.
type Handler struct {
	historyv1.UnimplementedHistoryServiceServer
	lifeCtx   context.Context
	shards    *ShardController
	store     *persistence.Store
	cache     *EventCache
	queue     *TransferQueue
	throttle  time.Duration
}

// NewHandler makes a handler; ctx is the host's lifetime.
func NewHandler(ctx context.Context, store *persistence.Store, shards *ShardController, q *TransferQueue) *Handler {
	return &Handler{lifeCtx: ctx, shards: shards, store: store, cache: NewEventCache(store, time.Minute), queue: q}
}

// Register registers the handler.
func (h *Handler) Register(s *grpc.Server) { historyv1.RegisterHistoryServiceServer(s, h) }

func fromProto(in []*historyv1.Event) []persistence.Event {
	out := make([]persistence.Event, 0, len(in))
	for _, e := range in {
		out = append(out, persistence.Event{ID: e.GetId(), Type: e.GetType(), Data: e.GetData()})
	}
	return out
}

func toProto(in []persistence.Event) []*historyv1.Event {
	out := make([]*historyv1.Event, 0, len(in))
	for _, e := range in {
		out = append(out, &historyv1.Event{Id: e.ID, Type: e.Type, Data: e.Data})
	}
	return out
}

// AppendEvents appends events and schedules the transfer task.
func (h *Handler) AppendEvents(ctx context.Context, req *historyv1.AppendEventsRequest) (*historyv1.AppendEventsResponse, error) {
	start := time.Now()
	defer func() { appendLatency.Record(context.Background(), time.Since(start)) }() // OK: ctxbackground — a metric record, deferred
	if _, err := h.shards.GetShard(ctx, req.GetShardId()); err != nil {
		return nil, status.FromContextError(err).Err()
	}
	evs := fromProto(req.GetEvents())
	var last int64
	var err error
	for attempt := 0; attempt < 3; attempt++ {
		last, err = h.store.AppendEvents(ctx, req.GetShardId(), req.GetWorkflowId(), evs)
		if !errors.Is(err, persistence.ErrConflict) {
			break
		}
		time.Sleep(time.Duration(attempt+1) * 50 * time.Millisecond) // BUG: ctxless — retry backoff loop never checks ctx
	}
	if err != nil {
		return nil, status.Errorf(codes.Internal, "append events: %v", err) // BUG: statusmask — ErrConflict test tells only its own branch apart
	}
	h.cache.Put(req.GetWorkflowId(), evs)
	h.queue.Enqueue(TransferTask{WorkflowID: req.GetWorkflowId(), TaskID: req.GetWorkflowId()})
	rctx := context.WithoutCancel(ctx)
	// ^BUG: detach — replication runs unbounded and no one said why
	go func() { _ = h.store.WriteVisibility(rctx, "", req.GetWorkflowId(), "open") }()
	return &historyv1.AppendEventsResponse{LastEventId: last}, nil
}

// GetHistory returns a workflow's history.
func (h *Handler) GetHistory(ctx context.Context, req *historyv1.GetHistoryRequest) (*historyv1.GetHistoryResponse, error) {
	obs.L.Info(ctx, "get history", "wf", req.GetWorkflowId()) // OK: ctxbackground — logging with the request ctx
	evs, err := h.cache.Get(req.GetShardId(), req.GetWorkflowId()) // BUG: ctxbackground — read-through cache loads on its own root outside its lock
	if err != nil {
		return nil, toStatus(err) // OK: statusmask — a mapping helper of the module
	}
	return &historyv1.GetHistoryResponse{Events: toProto(evs)}, nil
}

// DescribeMutableState reports a workflow's status.
func (h *Handler) DescribeMutableState(ctx context.Context, req *historyv1.DescribeMutableStateRequest) (*historyv1.DescribeMutableStateResponse, error) {
	st, next, err := h.store.LoadMutableState(h.lifeCtx, req.GetShardId(), req.GetWorkflowId()) // BUG: ctxflow — host lifetime ctx in a handler
	if err != nil {
		return nil, status.Errorf(codes.Unavailable, "load state: %v", err) // OK: statusmask — the call was not given the request's ctx
	}
	return &historyv1.DescribeMutableStateResponse{Status: st, NextEventId: next}, nil
}

// WatchEvents streams new events until the client leaves.
func (h *Handler) WatchEvents(req *historyv1.WatchEventsRequest, stream historyv1.HistoryService_WatchEventsServer) error {
	ctx := stream.Context()
	time.Sleep(h.throttle) // OK: ctxless — a single deliberate throttle, not a loop
	var sent int64
	for {
		evs, err := h.store.LoadEvents(ctx, req.GetShardId(), req.GetWorkflowId()) // OK: ctxbackground — the stream's ctx
		if err != nil {
			if ctx.Err() != nil {
				return status.FromContextError(ctx.Err()).Err()
			}
			return status.Errorf(codes.Internal, "load: %v", err) // OK: statusmask — ctx.Err() tells a deadline apart
		}
		for _, e := range evs {
			if e.ID <= sent {
				continue
			}
			if err := stream.Send(&historyv1.Event{Id: e.ID, Type: e.Type, Data: e.Data}); err != nil {
				return err
			}
			sent = e.ID
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(500 * time.Millisecond): // OK: ctxless — the wait observes ctx.Done
		}
	}
}

func toStatus(err error) error {
	switch {
	case errors.Is(err, persistence.ErrNotFound):
		return status.Error(codes.NotFound, err.Error())
	case errors.Is(err, context.DeadlineExceeded):
		return status.Error(codes.DeadlineExceeded, err.Error())
	case errors.Is(err, context.Canceled):
		return status.Error(codes.Canceled, err.Error())
	}
	return status.Error(codes.Internal, err.Error())
}
