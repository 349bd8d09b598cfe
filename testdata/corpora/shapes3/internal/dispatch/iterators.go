package dispatch

// Listing, exporting and heartbeating jobs. The rows come from iterators (iter.Seq,
// iter.Seq2) that run their query when the loop starts.

import (
	"context"
	"iter"
	"log"
	"slices"
	"strings"
	"time"

	invpb "example.test/shapes3/gen/inventory/v1"
	jobspb "example.test/shapes3/gen/jobs/v1"
	"example.test/shapes3/internal/ledger"
)

// ListJobs lists the jobs updated since the given time.
func (s *Server) ListJobs(ctx context.Context, req *jobspb.ListJobsRequest) (*jobspb.ListJobsReply, error) {
	reply := &jobspb.ListJobsReply{}
	since := time.Unix(req.GetSinceUnix(), 0)
	for job, err := range s.jobs.Since(ctx, since, int(req.GetLimit())) { // OK: the ledger's iterator queries with the request ctx
		if err != nil {
			return nil, err
		}
		reply.Jobs = append(reply.Jobs, toProto(job))
	}
	return reply, nil
}

// ExportJobs exports the stale jobs; with a limit of -1 it also checks their SKUs against the
// inventory catalog.
func (s *Server) ExportJobs(ctx context.Context, req *jobspb.ListJobsRequest) (*jobspb.ListJobsReply, error) {
	reply := &jobspb.ListJobsReply{}
	for job := range s.jobs.Stale() { // BUG: ctxbackground
		reply.Jobs = append(reply.Jobs, toProto(job))
	}
	if req.GetLimit() != -1 {
		return reply, nil
	}
	known := make(map[string]bool)
	for item := range s.catalog() {
		known[item.GetSku()] = true
	}
	for _, j := range reply.Jobs {
		for _, sku := range j.GetSkus() {
			if !known[sku] {
				j.History = append(j.History, "unknown sku "+sku)
			}
		}
	}
	return reply, nil
}

// catalog yields every item of the inventory, page by page.
func (s *Server) catalog() iter.Seq[*invpb.Item] {
	return func(yield func(*invpb.Item) bool) {
		ctx := context.Background()
		token := ""
		for {
			resp, err := s.inv.ListItems(ctx, &invpb.ListItemsRequest{PageToken: token, PageSize: 500}) // BUG: missingdeadline
			if err != nil {
				log.Printf("dispatch: catalog: %v", err)
				return
			}
			for _, item := range resp.GetItems() {
				if !yield(item) {
					return
				}
			}
			if token = resp.GetNextPageToken(); token == "" {
				return
			}
		}
	}
}

// recent yields the last n jobs, newest first.
func (s *Server) recent(ctx context.Context, n int32) iter.Seq2[ledger.Job, error] {
	return func(yield func(ledger.Job, error) bool) {
		rows, err := s.db.QueryContext(ctx, `SELECT id, kind, state FROM jobs ORDER BY updated_at DESC LIMIT $1`, n)
		if err != nil {
			yield(ledger.Job{}, err)
			return
		}
		defer rows.Close()
		for rows.Next() {
			var j ledger.Job
			if err := rows.Scan(&j.ID, &j.Kind, &j.State); err != nil {
				yield(ledger.Job{}, err)
				return
			}
			if !yield(j, nil) {
				return
			}
		}
	}
}

// RecentJobs lists the most recently updated jobs.
func (s *Server) RecentJobs(ctx context.Context, req *jobspb.ListJobsRequest) (*jobspb.ListJobsReply, error) {
	reply := &jobspb.ListJobsReply{}
	for job, err := range s.recent(ctx, req.GetLimit()) { // OK: recent queries with the ctx it is given
		if err != nil {
			return nil, err
		}
		reply.Jobs = append(reply.Jobs, toProto(job))
	}
	return reply, nil
}

// leased yields the ids of the jobs whose lease is still running.
func (s *Server) leased() iter.Seq[string] {
	return func(yield func(string) bool) {
		rows, err := s.db.QueryContext(context.TODO(), `SELECT id FROM jobs WHERE lease_until > now()`)
		if err != nil {
			return
		}
		defer rows.Close()
		for rows.Next() {
			var id string
			if rows.Scan(&id) != nil || !yield(id) {
				return
			}
		}
	}
}

// TouchJobs extends the lease of every leased job.
func (s *Server) TouchJobs(ctx context.Context, req *jobspb.ListJobsRequest) (*jobspb.BatchReply, error) {
	reply := &jobspb.BatchReply{}
	for id := range s.leased() { // BUG: ctxbackground
		if err := s.jobs.Touch(ctx, id); err != nil { // OK: the request ctx
			reply.Failed = append(reply.Failed, id)
			continue
		}
		reply.Done++
	}
	return reply, nil
}

// heartbeats yields the jobs owner holds and records a heartbeat for each.
func (s *Server) heartbeats(ctx context.Context, owner string) iter.Seq[string] {
	return func(yield func(string) bool) {
		rows, err := s.db.QueryContext(ctx,
			`UPDATE jobs SET heartbeat_at = now() WHERE owner = $1 RETURNING id`, owner)
		if err != nil {
			return
		}
		defer rows.Close()
		for rows.Next() {
			var id string
			if rows.Scan(&id) != nil || !yield(id) {
				return
			}
		}
	}
}

// HeartbeatJobs records a heartbeat for every job the calling worker holds.
func (s *Server) HeartbeatJobs(ctx context.Context, req *jobspb.ListJobsRequest) (*jobspb.BatchReply, error) {
	reply := &jobspb.BatchReply{}
	owner := ownerFrom(ctx)
	hctx := context.WithoutCancel(ctx)
	// ^BUG: detach
	for range s.heartbeats(hctx, owner) {
		reply.Done++
	}
	return reply, nil
}

// pagesOf yields the tenant's jobs in pages of size.
func (s *Server) pagesOf(ctx context.Context, tenant string, size int32) iter.Seq2[[]ledger.Job, error] {
	return func(yield func([]ledger.Job, error) bool) {
		after := ""
		for {
			rows, err := s.db.QueryContext(ctx,
				`SELECT id, kind, state FROM jobs WHERE tenant = $1 AND id > $2 ORDER BY id LIMIT $3`, tenant, after, size)
			if err != nil {
				yield(nil, err)
				return
			}
			var page []ledger.Job
			for rows.Next() {
				var j ledger.Job
				if err := rows.Scan(&j.ID, &j.Kind, &j.State); err != nil {
					rows.Close()
					yield(nil, err)
					return
				}
				page = append(page, j)
			}
			rows.Close()
			if len(page) == 0 || !yield(page, nil) {
				return
			}
			after = page[len(page)-1].ID
		}
	}
}

// PageJobs returns the calling tenant's jobs, up to the limit.
func (s *Server) PageJobs(ctx context.Context, req *jobspb.ListJobsRequest) (*jobspb.ListJobsReply, error) {
	reply := &jobspb.ListJobsReply{}
	tenant := tenantOf(ctx)
	tctx := s.tenantCtx[tenant]
	for page, err := range s.pagesOf(tctx, tenant, 100) { // BUG: ctxflow
		if err != nil {
			return nil, err
		}
		for _, j := range page {
			reply.Jobs = append(reply.Jobs, toProto(j))
		}
		if int32(len(reply.Jobs)) >= req.GetLimit() {
			break
		}
	}
	return reply, nil
}

// ChunkJobs assigns the given jobs to chunks of 100 for the bulk workers.
func (s *Server) ChunkJobs(ctx context.Context, req *jobspb.JobsRequest) (*jobspb.BatchReply, error) {
	reply := &jobspb.BatchReply{}
	n := 0
	for chunk := range slices.Chunk(req.GetIds(), 100) {
		n++
		if _, err := s.db.Exec(`UPDATE jobs SET chunk = $2 WHERE id = ANY(string_to_array($1, ','))`, strings.Join(chunk, ","), n); err != nil { // BUG: ctxless
			return nil, err
		}
		reply.Done += int32(len(chunk))
	}
	for chunk := range slices.Chunk(req.GetIds(), 100) {
		if _, err := s.db.ExecContext(ctx, `INSERT INTO chunk_queue (ids) VALUES ($1)`, strings.Join(chunk, ",")); err != nil { // OK: ExecContext with the request ctx
			return nil, err
		}
	}
	if n > 10 {
		time.Sleep(chunkPenalty) // OK: a single back-pressure pause, not in a loop
	}
	for {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		var pending int
		if err := s.db.QueryRowContext(ctx, `SELECT count(*) FROM chunk_queue WHERE picked = false`).Scan(&pending); err != nil {
			return nil, err
		}
		if pending < 1000 {
			break
		}
		time.Sleep(idlePoll) // OK: every turn of the poll checks ctx.Err()
	}
	return reply, nil
}
