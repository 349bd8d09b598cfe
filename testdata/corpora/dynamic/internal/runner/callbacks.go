package runner

// Family 1 — callbacks: a function value passed as an argument and called by the callee.
// Function literals, named functions, bound method values (w.flush), method expressions
// ((*Server).expireOne) and a generated client's method expression
// (invpb.InventoryServiceClient.GetItem called as get(c, ctx, req)).

import (
	"context"
	"database/sql"
	"fmt"
	"time"

	"google.golang.org/grpc"

	invpb "example.test/dynamic/gen/inventory/v1"
	jobspb "example.test/dynamic/gen/jobs/v1"
	"example.test/dynamic/internal/batch"
	"example.test/dynamic/internal/store"
)

// SubmitJobs stores the submitted jobs, queues them and announces them.
func (s *Server) SubmitJobs(ctx context.Context, req *jobspb.JobsRequest) (*jobspb.BatchReply, error) {
	if err := batch.Each(ctx, req.GetIds(), s.saveQueued); err != nil { // BUG: ctxbackground
		return nil, err
	}
	if err := batch.Each(ctx, req.GetIds(), s.pushQueued); err != nil { // OK: pushQueued works with the ctx it is given
		return nil, err
	}
	s.afterCommit(ctx, s.announce)
	return &jobspb.BatchReply{Done: int32(len(req.GetIds()))}, nil
}

func (s *Server) saveQueued(_ context.Context, id string) error {
	return s.jobs.Save(context.Background(), store.Job{ID: id, State: "queued"})
}

func (s *Server) pushQueued(ctx context.Context, id string) error {
	return s.queue.Push(ctx, "default", id)
}

func (s *Server) announce(ctx context.Context) error {
	return s.queue.Push(ctx, "announcements", "submitted")
}

func (s *Server) afterCommit(ctx context.Context, fn func(context.Context) error) {
	go fn(context.WithoutCancel(ctx))
	// ^BUG: detach
}

// HoldStock puts a hold on every SKU of the request for its job.
func (s *Server) HoldStock(ctx context.Context, req *jobspb.StockRequest) (*jobspb.StockReply, error) {
	err := batch.EachDetached(req.GetSkus(), holdBudget, func(ctx context.Context, sku string) error { // BUG: ctxbackground
		return s.stock.Hold(ctx, sku, req.GetQuantity(), req.GetJobId())
	})
	if err != nil {
		return nil, err
	}
	return &jobspb.StockReply{}, nil
}

// ReleaseStock drops the job's holds and writes the audit line.
func (s *Server) ReleaseStock(ctx context.Context, req *jobspb.StockRequest) (*jobspb.StockReply, error) {
	err := batch.Each(ctx, req.GetSkus(), func(ctx context.Context, sku string) error { // OK: the literal gets the request ctx
		return s.stock.Unhold(ctx, sku, req.GetJobId())
	})
	if err != nil {
		return nil, err
	}
	s.detachedFor(ctx, auditBudget, func(ctx context.Context) error { // OK: bounded, and detachedFor says why
		return s.jobs.AppendLog(ctx, req.GetJobId(), []string{"holds released"})
	})
	return &jobspb.StockReply{}, nil
}

// detachedFor runs fn in the background with a ctx detached from the request: the audit line
// must be written even when the client has gone, but never for longer than budget.
func (s *Server) detachedFor(ctx context.Context, budget time.Duration, fn func(context.Context) error) {
	dctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), budget) // OK: bounded and explained
	go func() {
		defer cancel()
		_ = fn(dctx)
	}()
}

// ExpireJobs archives and purges expired jobs, then expires the listed ones.
func (s *Server) ExpireJobs(ctx context.Context, req *jobspb.JobsRequest) (*jobspb.BatchReply, error) {
	if err := batch.InTx(ctx, s.db, archiveExpired); err != nil { // OK: archiveExpired uses the ctx it is given
		return nil, err
	}
	if err := batch.InTx(ctx, s.db, purgeExpired); err != nil { // BUG: ctxbackground
		return nil, err
	}
	if err := forEachJob(ctx, s, req.GetIds(), (*Server).expireOne); err != nil { // BUG: ctxbackground
		return nil, err
	}
	return &jobspb.BatchReply{Done: int32(len(req.GetIds()))}, nil
}

// RenewJobs extends the lease of the listed jobs.
func (s *Server) RenewJobs(ctx context.Context, req *jobspb.JobsRequest) (*jobspb.BatchReply, error) {
	if err := forEachJob(ctx, s, req.GetIds(), (*Server).renewOne); err != nil { // OK: method expression that uses its ctx
		return nil, err
	}
	return &jobspb.BatchReply{Done: int32(len(req.GetIds()))}, nil
}

func archiveExpired(ctx context.Context, tx *sql.Tx) error {
	_, err := tx.ExecContext(ctx, `INSERT INTO jobs_archive SELECT * FROM jobs WHERE state = 'expired'`)
	return err
}

func purgeExpired(_ context.Context, tx *sql.Tx) error {
	_, err := tx.ExecContext(context.TODO(), `DELETE FROM jobs WHERE state = 'expired'`)
	return err
}

func forEachJob(ctx context.Context, s *Server, ids []string, fn func(*Server, context.Context, string) error) error {
	for _, id := range ids {
		if err := fn(s, ctx, id); err != nil {
			return fmt.Errorf("job %s: %w", id, err)
		}
	}
	return nil
}

func (s *Server) expireOne(_ context.Context, id string) error {
	ctx, cancel := context.WithTimeout(context.Background(), expireBudget)
	defer cancel()
	return s.jobs.Expire(ctx, id)
}

func (s *Server) renewOne(ctx context.Context, id string) error {
	return s.jobs.Renew(ctx, id, renewTTL)
}

type itemGetter func(invpb.InventoryServiceClient, context.Context, *invpb.GetItemRequest, ...grpc.CallOption) (*invpb.Item, error)

func lookupAll(ctx context.Context, c invpb.InventoryServiceClient, skus []string, get itemGetter) ([]*invpb.Item, error) {
	out := make([]*invpb.Item, 0, len(skus))
	for _, sku := range skus {
		it, err := get(c, ctx, &invpb.GetItemRequest{Sku: sku})
		if err != nil {
			return nil, err
		}
		out = append(out, it)
	}
	return out, nil
}

func lookupFresh(c invpb.InventoryServiceClient, skus []string, get itemGetter) ([]*invpb.Item, error) {
	ctx, cancel := context.WithTimeout(context.Background(), lookupBudget)
	defer cancel()
	out := make([]*invpb.Item, 0, len(skus))
	for _, sku := range skus {
		it, err := get(c, ctx, &invpb.GetItemRequest{Sku: sku})
		if err != nil {
			return nil, err
		}
		out = append(out, it)
	}
	return out, nil
}

// LookupItems returns what is available of every SKU, less the local holds.
func (s *Server) LookupItems(ctx context.Context, req *jobspb.StockRequest) (*jobspb.StockReply, error) {
	items, err := lookupAll(ctx, s.inv, req.GetSkus(), invpb.InventoryServiceClient.GetItem) // OK: the method expression gets the request ctx
	if err != nil {
		return nil, err
	}
	avail := make(map[string]int64, len(items))
	for _, it := range items {
		avail[it.GetSku()] = it.GetOnHand() - it.GetReserved()
	}
	err = batch.Each(ctx, req.GetSkus(), func(ctx context.Context, sku string) error { // OK: the literal gets the request ctx
		var held int64
		if err := s.db.QueryRow(`SELECT coalesce(sum(qty), 0) FROM holds WHERE sku = $1`, sku).Scan(&held); err != nil { // BUG: ctxless
			return err
		}
		avail[sku] -= held
		return nil
	})
	if err != nil {
		return nil, err
	}
	return &jobspb.StockReply{Available: avail}, nil
}

// PriceItems returns the current price of every SKU.
func (s *Server) PriceItems(ctx context.Context, req *jobspb.StockRequest) (*jobspb.StockReply, error) {
	items, err := lookupFresh(s.inv, req.GetSkus(), invpb.InventoryServiceClient.GetItem) // BUG: ctxbackground
	if err != nil {
		return nil, err
	}
	prices := make(map[string]int64, len(items))
	for _, it := range items {
		prices[it.GetSku()] = it.GetPriceCents()
	}
	return &jobspb.StockReply{Prices: prices}, nil
}

type logBuffer struct {
	jobs  *store.Jobs
	id    string
	lines []string
}

func (w *logBuffer) flush(_ context.Context) error {
	return w.jobs.AppendLog(context.Background(), w.id, w.lines)
}

func (w *logBuffer) flushTo(ctx context.Context) error {
	return w.jobs.AppendLog(ctx, w.id, w.lines)
}

func (s *Server) takePending(id string) []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	lines := s.pending[id]
	delete(s.pending, id)
	return lines
}

// FlushJournal writes the job's buffered journal lines under the job's journal lock.
func (s *Server) FlushJournal(ctx context.Context, req *jobspb.JobRequest) (*jobspb.BatchReply, error) {
	w := &logBuffer{jobs: s.jobs, id: req.GetId(), lines: s.takePending(req.GetId())}
	key := "journal:" + req.GetId()
	if req.GetFull() {
		if err := batch.Locked(ctx, s.locks, key, w.flushTo); err != nil { // OK: bound method value that uses its ctx
			return nil, err
		}
		return &jobspb.BatchReply{Done: int32(len(w.lines))}, nil
	}
	if err := batch.Locked(ctx, s.locks, key, w.flush); err != nil { // BUG: ctxbackground
		return nil, err
	}
	return &jobspb.BatchReply{Done: int32(len(w.lines))}, nil
}
