package runner

// Family 5 — generics: generic functions (retry.Do, retry.Map, retry.Detached,
// retry.ResyncAll over a type parameter's method) and methods of instantiated generic types
// (cache.Cache[K, V].Get and Warm, two instantiations with different loaders).

import (
	"context"
	"time"

	invpb "example.test/dynamic/gen/inventory/v1"
	jobspb "example.test/dynamic/gen/jobs/v1"
	"example.test/dynamic/internal/retry"
	"example.test/dynamic/internal/store"
)

func (s *Server) loadFresh(_ context.Context, id string) (store.Job, error) {
	ctx, cancel := context.WithTimeout(context.Background(), historyBudget)
	defer cancel()
	return s.jobs.LoadPrimary(ctx, id)
}

func (s *Server) fetchItemFresh(_ context.Context, sku string) (*invpb.Item, error) {
	ctx, cancel := context.WithTimeout(context.Background(), lookupBudget)
	defer cancel()
	return s.inv.GetItem(ctx, &invpb.GetItemRequest{Sku: sku})
}

// LoadJobs loads the listed jobs, and those older than a minute again from the primary.
func (s *Server) LoadJobs(ctx context.Context, req *jobspb.JobsRequest) (*jobspb.ListJobsReply, error) {
	jobs, err := retry.Map(ctx, req.GetIds(), s.jobs.Load) // OK: generic fan-out with a method value that uses its ctx
	if err != nil {
		return nil, err
	}
	var stale []string
	for _, j := range jobs {
		if time.Since(j.Updated) > time.Minute {
			stale = append(stale, j.ID)
		}
	}
	fresh, err := retry.Map(ctx, stale, s.loadFresh) // BUG: ctxbackground
	if err != nil {
		return nil, err
	}
	out := &jobspb.ListJobsReply{}
	for _, j := range append(jobs, fresh...) {
		out.Jobs = append(out.Jobs, toProto(j))
	}
	return out, nil
}

// CountStock returns the held units of every SKU, and what is held outright.
func (s *Server) CountStock(ctx context.Context, req *jobspb.StockRequest) (*jobspb.StockReply, error) {
	out := &jobspb.StockReply{Available: map[string]int64{}}
	for _, sku := range req.GetSkus() {
		n, err := retry.Do(ctx, 3, func(ctx context.Context) (int64, error) { // OK: retry.Do passes the request ctx on
			return s.stock.Count(ctx, sku)
		})
		if err != nil {
			return nil, err
		}
		out.Available[sku] = n
	}
	tenant := tenantOf(ctx)
	total, err := retry.Detached(3, countBudget, func(ctx context.Context) (int64, error) { // BUG: ctxbackground
		return s.stock.CountForTenant(ctx, tenant)
	})
	if err != nil {
		return nil, err
	}
	out.Available["*"] = total
	return out, nil
}

// ItemInfo returns inventory's view of the SKUs, through the item cache.
func (s *Server) ItemInfo(ctx context.Context, req *jobspb.StockRequest) (*jobspb.StockReply, error) {
	out := &jobspb.StockReply{Available: map[string]int64{}, Prices: map[string]int64{}}
	for _, sku := range req.GetSkus() {
		it, err := s.items.Get(ctx, sku) // BUG: ctxbackground
		if err != nil {
			return nil, err
		}
		out.Available[sku] = it.GetOnHand()
		out.Prices[sku] = it.GetPriceCents()
	}
	return out, nil
}

// JobInfo returns a job through the job cache.
func (s *Server) JobInfo(ctx context.Context, req *jobspb.JobRequest) (*jobspb.Job, error) {
	job, err := s.jobCache.Get(ctx, req.GetId()) // OK: this instantiation's loader is s.jobs.Load
	if err != nil {
		return nil, err
	}
	return toProto(job), nil
}

// WarmJobs loads the listed jobs into the job cache.
func (s *Server) WarmJobs(ctx context.Context, req *jobspb.JobsRequest) (*jobspb.BatchReply, error) {
	if err := s.jobCache.Warm(req.GetIds()); err != nil { // BUG: ctxbackground
		return nil, err
	}
	return &jobspb.BatchReply{Done: int32(len(req.GetIds()))}, nil
}

// SyncShards refreshes the shards' counters; "reset" rebuilds them from scratch.
func (s *Server) SyncShards(ctx context.Context, req *jobspb.CommandRequest) (*jobspb.CommandReply, error) {
	if req.GetOp() == "reset" {
		if err := retry.ResyncAll(s.shards); err != nil { // BUG: ctxbackground
			return nil, err
		}
		return &jobspb.CommandReply{Output: "reset", Count: int64(len(s.shards))}, nil
	}
	if err := retry.SyncAll(ctx, s.shards); err != nil { // OK: generic over *store.Shard, passes ctx on
		return nil, err
	}
	_, err := retry.DoTimeout(ctx, 3, syncBudget, func(ctx context.Context) (int64, error) { // OK: per-attempt deadline derived from the request ctx
		return s.queue.Depth(ctx, "sync")
	})
	if err != nil {
		return nil, err
	}
	return &jobspb.CommandReply{Output: "synced", Count: int64(len(s.shards))}, nil
}
