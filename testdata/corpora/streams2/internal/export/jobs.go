package export

import (
	"sync"
	"time"

	exportv1 "example.test/streams2/gen/export/v1"
)

// JobUpdate is a change of an export job's state.
type JobUpdate struct {
	ID    string
	Table string
	State string
	Rows  int64
}

func (u JobUpdate) proto() *exportv1.Job {
	return &exportv1.Job{Id: u.ID, Table: u.Table, State: u.State, Rows: u.Rows}
}

func (u JobUpdate) finished() bool {
	return u.State == "done" || u.State == "failed" || u.State == "cancelled"
}

// Jobs fans job updates out to the streams watching them. The empty id watches every job.
type Jobs struct {
	mu   sync.Mutex
	subs map[string][]chan JobUpdate
}

// NewJobs returns an empty hub.
func NewJobs() *Jobs { return &Jobs{subs: map[string][]chan JobUpdate{}} }

// Updates returns a channel of the updates of job id ("" for all jobs). Drop releases it.
func (j *Jobs) Updates(id string) <-chan JobUpdate {
	ch := make(chan JobUpdate, 32)
	j.mu.Lock()
	j.subs[id] = append(j.subs[id], ch)
	j.mu.Unlock()
	return ch
}

// Drop releases a channel returned by Updates.
func (j *Jobs) Drop(id string, ch <-chan JobUpdate) {
	j.mu.Lock()
	defer j.mu.Unlock()
	subs := j.subs[id]
	for i, c := range subs {
		if c == ch {
			j.subs[id] = append(subs[:i], subs[i+1:]...)
			return
		}
	}
}

// Publish delivers an update to the watchers of its job and of all jobs.
func (j *Jobs) Publish(u JobUpdate) {
	j.mu.Lock()
	defer j.mu.Unlock()
	for _, key := range []string{u.ID, ""} {
		for _, c := range j.subs[key] {
			select {
			case c <- u:
			default:
			}
		}
	}
}

// Progress streams the state of one export job until it ends.
func (s *Server) Progress(req *exportv1.GetJobRequest, stream exportv1.ExportService_ProgressServer) error {
	updates := s.jobs.Updates(req.GetId())
	defer s.jobs.Drop(req.GetId(), updates)
	for {
		select { // BUG: streamloop
		case u := <-updates:
			stream.Send(u.proto())
			if u.finished() {
				return nil
			}
		case <-time.After(30 * time.Second): // OK: has a unit
			stream.Send(&exportv1.Job{Id: req.GetId(), State: "running"})
		}
	}
}

// WatchJobs streams every job update of a table ("" for all tables) to the dashboard.
func (s *Server) WatchJobs(req *exportv1.WatchJobsRequest, stream exportv1.ExportService_WatchJobsServer) error {
	ctx := stream.Context()
	updates := s.jobs.Updates("")
	defer s.jobs.Drop("", updates)
	for {
		select { // OK: has a <-ctx.Done() case
		case <-ctx.Done():
			return ctx.Err()
		case u := <-updates:
			if req.GetTable() != "" && u.Table != req.GetTable() {
				continue
			}
			// The dashboard redraws from GetJob when it reconnects; a lost update is harmless.
			stream.Send(u.proto())
		}
	}
}
