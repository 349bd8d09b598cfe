// Package export serves export.v1.ExportService: table dumps and change-log streams for the
// warehouse loaders and partner mirrors, bulk imports, and export job tracking. It was written
// against the older protoc-gen-go-grpc, whose stream types are named interfaces.
package export

import (
	"context"
	"errors"
	"strconv"
	"sync"
	"time"

	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/types/known/timestamppb"

	exportv1 "example.test/streams2/gen/export/v1"
	"example.test/streams2/internal/changelog"
	"example.test/streams2/internal/store"
)

const (
	dumpBatch   = 500
	loadBatch   = 1000
	defaultPoll = 5 * time.Second
	minDumpTime = 10 * time.Minute
)

// Server implements exportv1.ExportServiceServer.
type Server struct {
	exportv1.UnimplementedExportServiceServer

	store   *store.Store
	log     *changelog.Log
	leases  *Leases
	jobs    *Jobs
	indexer *Indexer

	checkpoints sync.Map // table -> last position a mirror acked
}

// NewServer returns an export server.
func NewServer(st *store.Store, log *changelog.Log, leases *Leases, jobs *Jobs, indexer *Indexer) *Server {
	return &Server{store: st, log: log, leases: leases, jobs: jobs, indexer: indexer}
}

// GetJob returns an export job.
func (s *Server) GetJob(ctx context.Context, req *exportv1.GetJobRequest) (*exportv1.Job, error) {
	j, err := s.store.Job(ctx, req.GetId())
	if err != nil {
		return nil, jobError(err) // OK: mapping helper
	}
	return jobProto(j), nil
}

// CancelJob cancels a queued or running export job.
func (s *Server) CancelJob(ctx context.Context, req *exportv1.CancelJobRequest) (*exportv1.Job, error) {
	j, err := s.store.CancelJob(ctx, req.GetId())
	if err != nil {
		st := status.New(codes.FailedPrecondition, "cancel "+req.GetId()+": "+err.Error()) // BUG: statusmask
		return nil, st.Err()
	}
	s.jobs.Publish(JobUpdate{ID: j.ID, Table: j.Table, State: j.State, Rows: j.Rows})
	return jobProto(j), nil
}

// jobError maps a store error to the status the export API documents.
func jobError(err error) error {
	switch {
	case errors.Is(err, store.ErrNotFound):
		return status.Error(codes.NotFound, "no such export job")
	case errors.Is(err, context.DeadlineExceeded):
		return status.Error(codes.DeadlineExceeded, err.Error())
	case errors.Is(err, context.Canceled):
		return status.Error(codes.Canceled, err.Error())
	}
	return status.Errorf(codes.Internal, "export job: %v", err) // OK: mapping helper, told apart above
}

func jobProto(j *store.Job) *exportv1.Job {
	return &exportv1.Job{Id: j.ID, Table: j.Table, State: j.State, Rows: j.Rows}
}

func toRecord(c changelog.Change) *exportv1.Record {
	return &exportv1.Record{
		Table:       c.Table,
		Position:    c.Position,
		Columns:     c.Columns,
		Deleted:     c.Deleted,
		CommittedAt: timestamppb.New(c.Committed),
	}
}

// Lease is the right to hold a snapshot open on a table. Leases on small tables do not expire.
type Lease struct {
	Table   string
	expires time.Time
}

// Deadline returns when the lease expires, and false if it never does.
func (l *Lease) Deadline() (time.Time, bool) {
	return l.expires, !l.expires.IsZero()
}

// Leases hands out snapshot leases, at most one per table.
type Leases struct {
	mu     sync.Mutex
	held   map[string]bool
	ttl    time.Duration
	small  map[string]bool
	maxAll int
}

// NewLeases returns a lease table. Tables in small get leases without expiry.
func NewLeases(ttl time.Duration, maxAll int, small ...string) *Leases {
	l := &Leases{held: map[string]bool{}, ttl: ttl, small: map[string]bool{}, maxAll: maxAll}
	for _, t := range small {
		l.small[t] = true
	}
	return l
}

// Acquire takes the lease of a table.
func (l *Leases) Acquire(table string) (*Lease, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.held[table] {
		return nil, errors.New("a dump of " + table + " is already running")
	}
	if len(l.held) >= l.maxAll {
		return nil, errors.New("too many dumps running (" + strconv.Itoa(len(l.held)) + ")")
	}
	l.held[table] = true
	lease := &Lease{Table: table}
	if !l.small[table] {
		lease.expires = time.Now().Add(l.ttl)
	}
	return lease, nil
}

// Release gives a lease back.
func (l *Leases) Release(lease *Lease) {
	l.mu.Lock()
	delete(l.held, lease.Table)
	l.mu.Unlock()
}
