package runner

// Family 4 — range-over-func: iterators (iter.Seq / iter.Seq2) that do ctx-taking work while
// they yield, and loop bodies that do work.

import (
	"context"
	"slices"
	"time"

	jobspb "example.test/dynamic/gen/jobs/v1"
)

func limitOf(req *jobspb.ListJobsRequest) int {
	if n := int(req.GetLimit()); n > 0 {
		return n
	}
	return 100
}

// ListJobs lists the jobs of the index.
func (s *Server) ListJobs(ctx context.Context, req *jobspb.ListJobsRequest) (*jobspb.ListJobsReply, error) {
	out := &jobspb.ListJobsReply{}
	for id, row := range s.idx.All() { // BUG: ctxbackground
		if len(out.Jobs) >= limitOf(req) {
			break
		}
		out.Jobs = append(out.Jobs, &jobspb.Job{Id: id, State: row.State})
	}
	return out, nil
}

// ExportJobs lists the jobs of the index and marks them exported.
func (s *Server) ExportJobs(ctx context.Context, req *jobspb.ListJobsRequest) (*jobspb.ListJobsReply, error) {
	out := &jobspb.ListJobsReply{}
	for id, row := range s.idx.Scan(ctx) { // OK: the iterator reads with the request ctx
		if len(out.Jobs) >= limitOf(req) {
			break
		}
		if err := s.jobs.Touch(ctx, id); err != nil { // OK
			return nil, err
		}
		out.Jobs = append(out.Jobs, &jobspb.Job{Id: id, State: row.State})
	}
	return out, nil
}

// RecentJobs lists the jobs updated since a time.
func (s *Server) RecentJobs(ctx context.Context, req *jobspb.ListJobsRequest) (*jobspb.ListJobsReply, error) {
	out := &jobspb.ListJobsReply{}
	since := time.Unix(req.GetSinceUnix(), 0)
	for id, row := range s.idx.Since(ctx, since) { // BUG: ctxbackground
		if len(out.Jobs) >= limitOf(req) {
			break
		}
		out.Jobs = append(out.Jobs, &jobspb.Job{Id: id, State: row.State})
	}
	return out, nil
}

// TouchJobs bumps the updated time of every job.
func (s *Server) TouchJobs(ctx context.Context, req *jobspb.ListJobsRequest) (*jobspb.BatchReply, error) {
	var n int32
	for id := range s.idx.Keys(ctx) { // OK: the iterator reads with the request ctx
		if err := s.jobs.Touch(context.Background(), id); err != nil { // BUG: ctxbackground
			return nil, err
		}
		n++
	}
	return &jobspb.BatchReply{Done: n}, nil
}

// HeartbeatJobs queues a heartbeat for every job.
func (s *Server) HeartbeatJobs(ctx context.Context, req *jobspb.ListJobsRequest) (*jobspb.BatchReply, error) {
	var n int32
	for id := range s.idx.Keys(ctx) { // OK
		if err := s.queue.Push(s.baseCtx, "heartbeat", id); err != nil { // BUG: ctxflow
			return nil, err
		}
		n++
	}
	return &jobspb.BatchReply{Done: n}, nil
}

// PageJobs lists the jobs of the index through a cursor.
func (s *Server) PageJobs(ctx context.Context, req *jobspb.ListJobsRequest) (*jobspb.ListJobsReply, error) {
	out := &jobspb.ListJobsReply{}
	cur := s.idx.Cursor(ctx)
	for id, row := range cur.Rows() { // OK: the cursor carries the request ctx
		if len(out.Jobs) >= limitOf(req) {
			break
		}
		out.Jobs = append(out.Jobs, &jobspb.Job{Id: id, State: row.State})
	}
	return out, nil
}

// ChunkJobs touches the listed jobs fifty at a time.
func (s *Server) ChunkJobs(ctx context.Context, req *jobspb.JobsRequest) (*jobspb.BatchReply, error) {
	var n int32
	for chunk := range slices.Chunk(req.GetIds(), 50) {
		for _, id := range chunk {
			if err := s.jobs.Touch(ctx, id); err != nil { // OK: loop body with the request ctx
				return nil, err
			}
			n++
		}
	}
	return &jobspb.BatchReply{Done: n}, nil
}
