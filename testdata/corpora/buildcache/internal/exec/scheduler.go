package exec

import (
	"context"
	"fmt"
	"sync/atomic"
	"time"

	"example.test/buildcache/gen/bcv1"
	"example.test/buildcache/internal/obs"
	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
)

var opSeq atomic.Int64

func newName() string { return fmt.Sprintf("operations/%d", opSeq.Add(1)) }

// Execution implements the Execution service.
type Execution struct {
	bcv1.UnimplementedExecutionServer
	ops   *OpTable
	queue *Queue
	ac    bcv1.ActionCacheClient
	sent  *obs.Counter
}

// NewExecution wires the scheduler.
func NewExecution(ops *OpTable, q *Queue, ac bcv1.ActionCacheClient) *Execution {
	return &Execution{ops: ops, queue: q, ac: ac, sent: obs.NewCounter("exec_updates")}
}

// Register adds the Execution and Bots services to srv.
func Register(srv *grpc.Server, e *Execution, b *Bots) {
	bcv1.RegisterExecutionServer(srv, e)
	bcv1.RegisterBotsServer(srv, b)
}

func (e *Execution) Execute(req *bcv1.ExecuteRequest, stream grpc.ServerStreamingServer[bcv1.Operation]) error {
	ctx := stream.Context()
	if !req.GetSkipCache() {
		res, err := e.ac.GetActionResult(ctx, &bcv1.GetActionResultRequest{Instance: req.GetInstance(), ActionDigest: req.GetActionDigest()}) // OK: missingdeadline — in request scope, inherits the caller's deadline
		if err == nil {
			return stream.Send(&bcv1.Operation{Name: newName(), Done: true, Result: res})
		}
	}
	op := &bcv1.Operation{Name: newName(), Stage: "QUEUED"}
	// TODO: decide whether persisting should outlive the client
	dctx := context.WithoutCancel(ctx)
	// ^BUG: detach — a TODO is no reason, and nothing bounds Persist
	if err := e.ops.Persist(dctx, op); err != nil {
		return err
	}
	if !e.queue.Enqueue(op.GetName(), req.GetActionDigest()) {
		return status.Error(codes.ResourceExhausted, "queue full")
	}
	for u := range e.ops.Watch(ctx, op.GetName()) { // OK: ctxbackground — Watch uses the ctx only in the goroutine it starts
		e.sent.Add(context.Background(), 1) // OK: ctxbackground — metric only
		if err := stream.Send(u); err != nil {
			return err
		}
	}
	return nil
}

func (e *Execution) WaitExecution(req *bcv1.WaitExecutionRequest, stream grpc.ServerStreamingServer[bcv1.Operation]) error {
	ctx := stream.Context()
	op, err := e.ops.Lookup(context.Background(), req.GetName()) // BUG: ctxbackground — the lookup outlives a client that gave up
	if err != nil {
		return status.Errorf(codes.NotFound, "%s: %v", req.GetName(), err) // OK: statusmask — the lookup ran on a fresh root
	}
	backoff := 100 * time.Millisecond
	for !op.GetDone() {
		time.Sleep(backoff) // BUG: ctxless — poll loop that never checks the stream's ctx
		if cur := e.ops.Get(req.GetName()); cur != nil {
			op = cur
		}
		backoff = min(backoff*2, 5*time.Second)
	}
	for i := 0; i < 3; i++ {
		if ctx.Err() != nil {
			return ctx.Err()
		}
		time.Sleep(10 * time.Millisecond) // OK: ctxless — every turn checks ctx.Err()
	}
	op.Stage = "DELIVERED"
	if err := e.ops.Persist(e.ops.Context(), op); err != nil { // BUG: ctxflow — the table's lifetime ctx, not the request's
		obs.Log.Error(ctx, "persist", "err", err)
	}
	return stream.Send(op)
}
