package dispatch

// Bulk loads, stock counts, cached lookups and shard syncs, written with the generic helpers:
// retry.Do, memo.Cache, mapErr, sumCounts and batch.

import (
	"context"
	"fmt"
	"strings"

	invpb "example.test/shapes3/gen/inventory/v1"
	jobspb "example.test/shapes3/gen/jobs/v1"
	"example.test/shapes3/internal/ledger"
	"example.test/shapes3/internal/retry"
)

// mapErr calls fn for every element of in, in order, and stops at the first error.
func mapErr[T, U any](ctx context.Context, in []T, fn func(context.Context, T) (U, error)) ([]U, error) {
	out := make([]U, 0, len(in))
	for _, v := range in {
		u, err := fn(ctx, v)
		if err != nil {
			return nil, fmt.Errorf("%v: %w", v, err)
		}
		out = append(out, u)
	}
	return out, nil
}

// sumCounts adds up the counts of skus in src.
func sumCounts[C interface {
	Count(context.Context, string) (int64, error)
}](ctx context.Context, src C, skus []string) (int64, error) {
	var total int64
	for _, sku := range skus {
		n, err := src.Count(ctx, sku)
		if err != nil {
			return 0, err
		}
		total += n
	}
	return total, nil
}

// batch collects values and sends them together.
type batch[T any] struct {
	items []T
	send  func(context.Context, []T) error
}

func newBatch[T any](send func(context.Context, []T) error) *batch[T] {
	return &batch[T]{send: send}
}

func (b *batch[T]) add(v T) { b.items = append(b.items, v) }

func (b *batch[T]) flush(ctx context.Context) error {
	if len(b.items) == 0 {
		return nil
	}
	err := b.send(ctx, b.items)
	b.items = b.items[:0]
	return err
}

// LoadJobs loads the given jobs, retrying transient failures.
func (s *Server) LoadJobs(ctx context.Context, req *jobspb.JobsRequest) (*jobspb.ListJobsReply, error) {
	jobs, err := retry.Do(ctx, 3, func(ctx context.Context) ([]ledger.Job, error) { // OK: the literal loads with the ctx retry.Do passes on
		return mapErr(ctx, req.GetIds(), s.jobs.Load)
	})
	if err != nil {
		return nil, err
	}
	reply := &jobspb.ListJobsReply{}
	for _, j := range jobs {
		reply.Jobs = append(reply.Jobs, toProto(j))
	}
	return reply, nil
}

// CountStock returns the stock of each SKU and the total.
func (s *Server) CountStock(ctx context.Context, req *jobspb.StockRequest) (*jobspb.StockReply, error) {
	snap, err := retry.Do(ctx, 2, s.stockSnapshot) // BUG: ctxbackground
	if err != nil {
		return nil, err
	}
	total, err := sumCounts(ctx, s.stock, req.GetSkus()) // OK: *ledger.Stock counts with the ctx sumCounts passes
	if err != nil {
		return nil, err
	}
	reply := &jobspb.StockReply{Available: make(map[string]int64)}
	for _, sku := range req.GetSkus() {
		reply.Available[sku] = snap[sku]
	}
	reply.Available["*"] = total
	return reply, nil
}

// stockSnapshot reads the stock table in one consistent snapshot. The snapshot is shared by
// the dashboards, so it is taken on its own.
func (s *Server) stockSnapshot(_ context.Context) (map[string]int64, error) {
	rows, err := s.db.QueryContext(context.Background(), `SELECT sku, on_hand FROM stock`)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	snap := make(map[string]int64)
	for rows.Next() {
		var sku string
		var n int64
		if err := rows.Scan(&sku, &n); err != nil {
			return nil, err
		}
		snap[sku] = n
	}
	return snap, rows.Err()
}

func (s *Server) fetchItem(ctx context.Context, sku string) (*invpb.Item, error) {
	return s.inv.GetItem(ctx, &invpb.GetItemRequest{Sku: sku})
}

// loadJobCold loads a job for the cache. Cache fills are shared by every later caller, so a
// fill is never cut short by the caller that triggered it.
func (s *Server) loadJobCold(_ context.Context, id string) (ledger.Job, error) {
	return s.jobs.Load(context.Background(), id)
}

// JobInfo returns a job, from the cache when it is fresh.
func (s *Server) JobInfo(ctx context.Context, req *jobspb.JobRequest) (*jobspb.Job, error) {
	job, err := s.jobMemo.Get(ctx, req.GetId()) // BUG: ctxbackground
	if err != nil {
		return nil, err
	}
	return toProto(job), nil
}

// ItemInfo returns the inventory items of the SKUs, from the cache when they are fresh.
func (s *Server) ItemInfo(ctx context.Context, req *jobspb.StockRequest) (*jobspb.StockReply, error) {
	reply := &jobspb.StockReply{Available: make(map[string]int64), Prices: make(map[string]int64)}
	for _, sku := range req.GetSkus() {
		item, err := s.items.Get(ctx, sku) // OK: the item loader calls the inventory service with the ctx Get hands it
		if err != nil {
			return nil, err
		}
		reply.Available[sku] = item.GetOnHand()
		reply.Prices[sku] = item.GetPriceCents()
	}
	return reply, nil
}

// WarmJobs loads the items of the given jobs into the item cache ahead of their run.
func (s *Server) WarmJobs(ctx context.Context, req *jobspb.JobsRequest) (*jobspb.BatchReply, error) {
	jobs, err := mapErr(ctx, req.GetIds(), s.jobs.Load) // OK: s.jobs.Load reads with the ctx mapErr passes
	if err != nil {
		return nil, err
	}
	var skus []string
	for _, j := range jobs {
		skus = append(skus, j.SKUs...)
	}
	s.items.Warm(skus, warmBudget) // BUG: ctxbackground
	return &jobspb.BatchReply{Done: int32(len(skus))}, nil
}

func (s *Server) moveToShard(ctx context.Context, ids []string) error {
	_, err := s.db.ExecContext(ctx, `UPDATE jobs SET shard = shard_for(id) WHERE id = ANY(string_to_array($1, ','))`,
		strings.Join(ids, ","))
	return err
}

// markSynced stamps the jobs as synced. The stamp only moves forward, so it is written
// whatever happens to the request.
func (s *Server) markSynced(_ context.Context, jobs []ledger.Job) error {
	for _, j := range jobs {
		if err := s.jobs.AppendNote(context.Background(), j.ID, "synced to "+j.Shard); err != nil {
			return err
		}
	}
	return nil
}

func (s *Server) syncShard(ctx context.Context, shard string) (int64, error) {
	res, err := s.db.ExecContext(ctx, `SELECT sync_shard($1)`, shard)
	if err != nil {
		return 0, err
	}
	return res.RowsAffected()
}

// SyncShards moves the given jobs to the shard their id hashes to and syncs the shard.
func (s *Server) SyncShards(ctx context.Context, req *jobspb.CommandRequest) (*jobspb.CommandReply, error) {
	marks := newBatch(s.markSynced)
	moves := newBatch(s.moveToShard)
	for _, id := range req.GetIds() {
		moves.add(id)
		marks.add(ledger.Job{ID: id, Shard: req.GetShard()})
	}
	if err := marks.flush(ctx); err != nil { // BUG: ctxbackground
		return nil, err
	}
	// a move that started must finish, or the shard is left half-moved; the budget keeps a
	// stuck primary from holding it forever
	mctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), syncBudget) // OK: bounded, with a reason
	defer cancel()
	if err := moves.flush(mctx); err != nil { // OK: moveToShard works with the ctx flush passes
		return nil, err
	}
	n, err := retry.Do(s.baseCtx, 3, func(ctx context.Context) (int64, error) { // BUG: ctxflow
		return s.syncShard(ctx, req.GetShard())
	})
	if err != nil {
		return nil, err
	}
	return &jobspb.CommandReply{Count: n}, nil
}
