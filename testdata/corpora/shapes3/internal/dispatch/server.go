// Package dispatch is the warehouse job dispatcher's gRPC server (jobs.v1.JobService). It
// stores jobs in Postgres, holds stock for them and talks to the inventory service.
package dispatch

import (
	"context"
	"database/sql"
	"log"
	"sync"
	"sync/atomic"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/grpc/metadata"

	invpb "example.test/shapes3/gen/inventory/v1"
	jobspb "example.test/shapes3/gen/jobs/v1"
	"example.test/shapes3/internal/ledger"
	"example.test/shapes3/internal/lifetime"
	"example.test/shapes3/internal/memo"
)

const (
	outboxBudget   = 3 * time.Second
	releaseBudget  = 2 * time.Second
	rollbackBudget = 2 * time.Second
	cleanupBudget  = 2 * time.Second
	reindexBudget  = 30 * time.Second
	statsBudget    = time.Minute
	warmBudget     = 5 * time.Second
	syncBudget     = 20 * time.Second
	saveBudget     = time.Second
	itemTTL        = 30 * time.Second
	jobTTL         = 5 * time.Second
	idlePoll       = 200 * time.Millisecond
	chunkPenalty   = 100 * time.Millisecond
)

// Deps is what the server is built from.
type Deps struct {
	DB        *sql.DB
	Replica   *sql.DB // optional read replica
	Inventory invpb.InventoryServiceClient
	Peer      jobspb.JobServiceClient // optional: the dispatcher of the other region
	Tenants   []string
	DryNotify bool // log notifications instead of writing them
	LocalHold bool // hold stock in our own tables instead of the inventory service
}

// lifecycle is the part of the lifetime manager the server uses.
type lifecycle interface {
	Context() context.Context
	Stop()
}

// shutdownCtx ends when the server starts shutting down; NewServer sets it.
var shutdownCtx context.Context

// Server implements jobspb.JobServiceServer.
type Server struct {
	jobspb.UnimplementedJobServiceServer

	db      *sql.DB
	replica *sql.DB
	jobs    *ledger.Jobs
	stock   *ledger.Stock
	locks   *ledger.Locks
	inv     invpb.InventoryServiceClient

	baseCtx   context.Context
	life      lifecycle
	tenantCtx map[string]context.Context
	cancels   []context.CancelFunc

	// function values (funcvalues.go)
	loadJob  func(context.Context, string) (ledger.Job, error)
	peek     func(context.Context, string) (ledger.Job, error)
	getItem  func(context.Context, *invpb.GetItemRequest, ...grpc.CallOption) (*invpb.Item, error)
	onFinish func(context.Context, string) error
	deferred workList

	// caches (generics.go)
	items   *memo.Cache[string, *invpb.Item]
	jobMemo *memo.Cache[string, ledger.Job]

	// collaborators behind small interfaces (ifaces.go)
	avail    stockSource
	reserver reserver
	releaser releaser
	pricer   pricer
	source   jobSource
	notifier notifier
	saver    saver
	dedup    deduper

	inflight  atomic.Int64
	ratesOnce sync.Once
	rates     map[string]int64
	ratesErr  error
}

// NewServer builds the server. ctx is the server's lifetime: it ends at shutdown.
func NewServer(ctx context.Context, d Deps) *Server {
	s := &Server{
		db:        d.DB,
		replica:   d.Replica,
		jobs:      ledger.NewJobs(d.DB),
		stock:     ledger.NewStock(d.DB),
		locks:     ledger.NewLocks(d.DB),
		inv:       d.Inventory,
		baseCtx:   ctx,
		life:      lifetime.New(ctx),
		tenantCtx: make(map[string]context.Context),
	}
	shutdownCtx = s.life.Context()
	for _, t := range d.Tenants {
		tctx, cancel := context.WithCancel(context.WithValue(ctx, tenantKey{}, t))
		s.tenantCtx[t] = tctx
		s.cancels = append(s.cancels, cancel)
	}

	s.loadJob = s.jobs.Load
	s.peek = s.jobs.Load
	if d.Replica != nil {
		s.peek = s.peekReplica
	}
	s.getItem = d.Inventory.GetItem
	s.onFinish = s.releaseAllHolds

	s.items = memo.New(itemTTL, s.fetchItem)
	s.jobMemo = memo.New(jobTTL, s.loadJobCold)

	s.avail = invStock{c: d.Inventory}
	if d.LocalHold {
		s.reserver = sqlReserver{db: d.DB}
		s.releaser = sqlReleaser{db: d.DB}
	} else {
		s.reserver = invReserver{c: d.Inventory}
		s.releaser = nopReleaser{}
	}
	s.pricer = invPricer{c: d.Inventory}
	if d.Peer != nil {
		s.source = peerJobs{c: d.Peer}
	} else {
		s.source = sqlJobs{db: d.DB}
	}
	if d.DryNotify {
		s.notifier = logNotifier{}
	} else {
		s.notifier = sqlNotifier{db: d.DB}
	}
	s.saver = ledgerSaver{jobs: s.jobs}
	if d.Replica != nil {
		s.saver = boundedSaver{jobs: s.jobs, budget: saveBudget}
	}
	s.dedup = &memDedup{seen: make(map[string]time.Time)}
	return s
}

// Register registers the server on gs.
func Register(gs *grpc.Server, s *Server) {
	jobspb.RegisterJobServiceServer(gs, s)
}

// Run does the deferred work handlers queue until the server shuts down. It is a background
// worker, not a request scope.
func (s *Server) Run() {
	ctx := s.life.Context()
	t := time.NewTicker(10 * time.Second)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
			for _, w := range s.deferred.take() {
				if err := w.run(ctx, w.id); err != nil { // OK: worker on the lifetime ctx
					log.Printf("dispatch: deferred %s: %v", w.id, err)
				}
			}
		}
	}
}

// Close stops the lifetime context and every tenant context.
func (s *Server) Close() {
	s.life.Stop()
	for _, cancel := range s.cancels {
		cancel()
	}
}

// workList is work handlers leave for Run.
type workList struct {
	mu    sync.Mutex
	items []work
}

type work struct {
	id  string
	run func(context.Context, string) error
}

func (l *workList) push(id string, run func(context.Context, string) error) {
	l.mu.Lock()
	l.items = append(l.items, work{id: id, run: run})
	l.mu.Unlock()
}

func (l *workList) take() []work {
	l.mu.Lock()
	defer l.mu.Unlock()
	items := l.items
	l.items = nil
	return items
}

type tenantKey struct{}

func tenantOf(ctx context.Context) string {
	if md, ok := metadata.FromIncomingContext(ctx); ok {
		if v := md.Get("x-tenant"); len(v) > 0 {
			return v[0]
		}
	}
	return "default"
}

func ownerFrom(ctx context.Context) string {
	if md, ok := metadata.FromIncomingContext(ctx); ok {
		if v := md.Get("x-worker"); len(v) > 0 {
			return v[0]
		}
	}
	return "dispatcher"
}

func isAdmin(ctx context.Context) bool {
	md, ok := metadata.FromIncomingContext(ctx)
	return ok && len(md.Get("x-admin")) > 0
}

func toProto(j ledger.Job) *jobspb.Job {
	return &jobspb.Job{
		Id:       j.ID,
		Kind:     j.Kind,
		State:    j.State,
		Skus:     j.SKUs,
		Tenant:   j.Tenant,
		Shard:    j.Shard,
		Attempts: int32(j.Attempts),
		History:  j.History,
	}
}
