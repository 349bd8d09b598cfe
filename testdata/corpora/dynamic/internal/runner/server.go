// Package runner is the job runner's gRPC server (jobs.v1.JobService). Its handlers are
// grouped by the shape through which their work travels: callbacks.go, funcvalues.go,
// closures.go, iterators.go, generics.go, ifaces.go and containers.go.
package runner

import (
	"context"
	"database/sql"
	"log"
	"sync"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/grpc/metadata"

	invpb "example.test/dynamic/gen/inventory/v1"
	jobspb "example.test/dynamic/gen/jobs/v1"
	"example.test/dynamic/internal/cache"
	"example.test/dynamic/internal/catalog"
	"example.test/dynamic/internal/lifecycle"
	"example.test/dynamic/internal/store"
)

const (
	holdBudget      = 2 * time.Second
	auditBudget     = 3 * time.Second
	expireBudget    = 5 * time.Second
	lookupBudget    = 2 * time.Second
	reindexBudget   = 10 * time.Second
	historyBudget   = 5 * time.Second
	releaseBudget   = 2 * time.Second
	adjustBudget    = 2 * time.Second
	noteBudget      = 2 * time.Second
	countBudget     = 3 * time.Second
	syncBudget      = 30 * time.Second
	inventoryBudget = 2 * time.Second
	journalBudget   = 2 * time.Second
	quotaBudget     = 500 * time.Millisecond
	compareBudget   = time.Second
	renewTTL        = 5 * time.Minute
	idlePoll        = 250 * time.Millisecond
)

// Deps is what the server is built from.
type Deps struct {
	DB           *sql.DB
	Replica      *sql.DB
	Inventory    invpb.InventoryServiceClient
	Shards       []string
	Lanes        []string
	Tenants      []string
	Workers      int
	QueueReindex bool
}

// Lifecycle is the part of the lifecycle manager the server uses.
type Lifecycle interface {
	Context() context.Context
	Stop()
}

type tenant struct {
	name  string
	ctx   context.Context
	limit int64
}

// lanes holds the lifetime ctx of every queue lane, filled by NewServer.
var lanes = map[string]context.Context{}

// Server implements jobspb.JobServiceServer.
type Server struct {
	jobspb.UnimplementedJobServiceServer

	db     *sql.DB
	jobs   *store.Jobs
	queue  *store.Queue
	locks  *store.Locks
	stock  *store.Stock
	inv    invpb.InventoryServiceClient
	idx    *catalog.Index
	shards []*store.Shard

	// function values stored in fields (funcvalues.go)
	reindex func(ctx context.Context, id string) error
	resolve func(ctx context.Context, id string) (store.Job, error)
	onDone  map[string]func(ctx context.Context, id string) error

	// generic caches (generics.go)
	items    *cache.Cache[string, *invpb.Item]
	jobCache *cache.Cache[string, store.Job]

	// interfaces implemented in this package (ifaces.go)
	avail    stockSource
	counter  counter
	reserver reserver
	releaser releaser
	journal  journal
	pricer   pricer
	quota    quota

	// contexts that live as long as the server (containers.go)
	baseCtx   context.Context
	life      Lifecycle
	scope     scoper
	shardCtx  map[string]context.Context
	workerCtx []context.Context
	tenants   map[string]tenant
	cancels   []context.CancelFunc

	mu      sync.Mutex
	pending map[string][]string
}

// NewServer builds the server. ctx is the server's lifetime: it ends at shutdown.
func NewServer(ctx context.Context, d Deps) *Server {
	s := &Server{
		db:       d.DB,
		jobs:     store.NewJobs(d.DB),
		queue:    store.NewQueue(d.DB),
		locks:    store.NewLocks(d.DB),
		stock:    store.NewStock(d.DB),
		inv:      d.Inventory,
		idx:      catalog.New(d.DB),
		baseCtx:  ctx,
		life:     lifecycle.New(ctx),
		scope:    tenantScope{},
		shardCtx: make(map[string]context.Context),
		tenants:  make(map[string]tenant),
		pending:  make(map[string][]string),
	}
	for _, name := range d.Shards {
		sctx, cancel := context.WithCancel(ctx)
		s.shardCtx[name] = sctx
		s.cancels = append(s.cancels, cancel)
		s.shards = append(s.shards, store.NewShard(name, d.DB))
	}
	for _, name := range d.Lanes {
		lctx, cancel := context.WithCancel(ctx)
		lanes[name] = lctx
		s.cancels = append(s.cancels, cancel)
	}
	for i := 0; i < max(d.Workers, 1); i++ {
		wctx, cancel := context.WithCancel(ctx)
		s.workerCtx = append(s.workerCtx, wctx)
		s.cancels = append(s.cancels, cancel)
	}
	for _, name := range d.Tenants {
		tctx, cancel := context.WithCancel(context.WithValue(ctx, tenantKey{}, name))
		s.tenants[name] = tenant{name: name, ctx: tctx, limit: 10_000}
		s.cancels = append(s.cancels, cancel)
	}

	s.resolve = s.jobs.Load
	s.reindex = s.reindexNow
	if d.QueueReindex {
		s.reindex = s.reindexLater
	}
	s.onDone = map[string]func(context.Context, string) error{
		"export":  s.exportDone,
		"restock": s.restockDone,
	}

	s.items = cache.New(s.fetchItemFresh)
	s.jobCache = cache.New(s.jobs.Load)

	s.avail = invStock{c: d.Inventory}
	s.counter = storeCounter{stock: s.stock}
	if d.Inventory != nil {
		s.reserver = invReserver{c: d.Inventory}
		s.releaser = invReleaser{c: d.Inventory}
	} else {
		s.reserver = &localReserver{stock: s.stock}
		s.releaser = &memReleaser{released: make(map[string]bool)}
	}
	if d.Replica != nil {
		s.journal = replicaJournal{primary: d.DB, replica: d.Replica}
	} else {
		s.journal = pgJournal{db: d.DB}
	}
	s.pricer = invPricer{c: d.Inventory}
	s.quota = sqlQuota{db: d.DB}
	return s
}

// Register registers the server on gs.
func Register(gs *grpc.Server, s *Server) {
	jobspb.RegisterJobServiceServer(gs, s)
}

// Run expires stale leases until the server's lifecycle ends. It is a background worker, not a
// request scope.
func (s *Server) Run() {
	ctx := s.life.Context()
	t := time.NewTicker(time.Minute)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
			n, err := s.jobs.ExpireStale(ctx) // OK: worker on the lifecycle ctx
			if err != nil {
				log.Printf("runner: expire stale: %v", err)
				continue
			}
			if n > 0 {
				log.Printf("runner: expired %d jobs", n)
			}
		}
	}
}

// Close stops the lifecycle and cancels every shard, lane, worker and tenant ctx.
func (s *Server) Close() {
	s.life.Stop()
	for _, cancel := range s.cancels {
		cancel()
	}
}

type tenantKey struct{}

func tenantOf(ctx context.Context) string {
	if t, ok := ctx.Value(tenantKey{}).(string); ok {
		return t
	}
	if md, ok := metadata.FromIncomingContext(ctx); ok {
		if v := md.Get("x-tenant"); len(v) > 0 {
			return v[0]
		}
	}
	return "default"
}

func isAdmin(ctx context.Context) bool {
	md, ok := metadata.FromIncomingContext(ctx)
	return ok && len(md.Get("x-admin")) > 0
}

func toProto(j store.Job) *jobspb.Job {
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

func fromProto(p *jobspb.Job) store.Job {
	return store.Job{
		ID:       p.GetId(),
		Kind:     p.GetKind(),
		State:    p.GetState(),
		SKUs:     p.GetSkus(),
		Tenant:   p.GetTenant(),
		Shard:    p.GetShard(),
		Attempts: int(p.GetAttempts()),
	}
}
