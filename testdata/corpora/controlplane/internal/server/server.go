// Package server implements the JobService gRPC API over the state store,
// the dispatch queue and the driver plugins.
package server

import (
	"context"
	"sync"
	"sync/atomic"
	"time"

	"google.golang.org/grpc"

	cpv1 "example.test/controlplane/gen/controlplane/v1"
	"example.test/controlplane/internal/plugin"
	"example.test/controlplane/internal/store"
	"example.test/controlplane/internal/telemetry"
)

// debug turns on state dumps in handlers; flipped by hand when chasing a bug.
const debug = false

// Deps are the server's collaborators.
type Deps struct {
	Store    *store.SQLStore
	Shards   *store.Shards
	Dispatch *store.Dispatcher
	Catalog  *plugin.Catalog
	Pool     *plugin.Pool
	Auditor  *telemetry.Auditor
	Logs     LogSource
}

// Server implements cpv1.JobServiceServer.
type Server struct {
	cpv1.UnimplementedJobServiceServer

	store    *store.SQLStore
	cache    store.JobCache
	shards   *store.Shards
	dispatch *store.Dispatcher
	locks    *store.LockManager
	catalog  *plugin.Catalog
	pool     *plugin.Pool
	auditor  *telemetry.Auditor
	logs     LogSource
	log      *telemetry.Logger
	health   healthChecker

	validators []func(ctx context.Context, j *store.Job) error
	namespaces *lazy[map[string]bool]
	evaluators sync.Pool

	// ctx is the server's lifetime: cancelled on shutdown.
	ctx context.Context

	mu         sync.Mutex
	workers    map[string]context.CancelFunc
	placements sync.Map // job id -> node
}

// New builds the server. ctx is the server's lifetime.
func New(ctx context.Context, d Deps) *Server {
	s := &Server{
		store:    d.Store,
		cache:    store.NewMemCache(30 * time.Second),
		shards:   d.Shards,
		dispatch: d.Dispatch,
		locks:    store.NewLockManager(d.Store),
		catalog:  d.Catalog,
		pool:     d.Pool,
		auditor:  d.Auditor,
		logs:     d.Logs,
		log:      telemetry.NewLogger("server"),
		ctx:      ctx,
		workers:  map[string]context.CancelFunc{},
	}
	s.health = &memHealth{log: s.log}
	s.validators = []func(context.Context, *store.Job) error{s.checkImage, s.checkQuota}
	s.evaluators.New = func() any { return &evaluator{store: s.store} }
	s.namespaces = newLazy(s.loadNamespaces)
	return s
}

// Register registers the server on g.
func (s *Server) Register(g *grpc.Server) { cpv1.RegisterJobServiceServer(g, s) }

// Run reconciles stored state with the drivers until the server's ctx is done.
func (s *Server) Run() {
	t := time.NewTicker(30 * time.Second)
	defer t.Stop()
	for {
		select {
		case <-s.ctx.Done():
			return
		case <-t.C:
			s.reconcile()
		}
	}
}

func (s *Server) reconcile() {
	ctx, cancel := context.WithTimeout(s.ctx, 20*time.Second)
	defer cancel()
	jobs, err := s.store.ListJobs(ctx, "default")
	if err != nil {
		s.log.Warn(ctx, "reconcile: list", "err", err)
		return
	}
	for _, j := range jobs {
		if err := s.save(ctx, j, saveFlush); err != nil {
			s.log.Warn(ctx, "reconcile: flush", "job", j.ID, "err", err)
		}
	}
}

// supervise runs a service job until its worker is cancelled.
func (s *Server) supervise(ctx context.Context, j *store.Job) {
	drv, err := s.catalog.Get(ctx, j.Driver)
	if err != nil {
		return
	}
	for {
		if _, err := drv.StartTask(ctx, plugin.TaskSpec{ID: j.ID, Image: j.Image, Args: j.Args}); err != nil {
			s.log.Warn(ctx, "supervise: start", "job", j.ID, "err", err)
		}
		select {
		case <-ctx.Done():
			return
		case <-time.After(time.Minute):
		}
	}
}

// StopWorker ends the supervision of a service job.
func (s *Server) StopWorker(id string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if cancel, ok := s.workers[id]; ok {
		cancel()
		delete(s.workers, id)
	}
}

type healthChecker interface {
	Check(ctx context.Context) error
}

// memHealth answers from flags the reconciler and the dispatcher set.
type memHealth struct {
	log      *telemetry.Logger
	degraded atomic.Bool
}

func (h *memHealth) Check(ctx context.Context) error {
	if h.degraded.Load() {
		h.log.Debug(ctx, "health: degraded")
		return errDegraded
	}
	return nil
}
