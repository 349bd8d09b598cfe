// Package store implements the StoreService served by every storage node.
package store

import (
	"context"
	"database/sql"
	"errors"
	"hash/fnv"
	"io"
	"log/slog"
	"sync"
	"sync/atomic"
	"time"

	"example.test/storage/gen/storagepb"
	"example.test/storage/internal/kv"
	"example.test/storage/internal/obs"
	"example.test/storage/internal/peer"
	"example.test/storage/internal/worker"
	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
)

// Config configures a Server.
type Config struct {
	Tenants   []string
	Followers []string
	Regions   uint64
	Owned     map[uint64]bool
	Penalty   time.Duration
}

// Server is the StoreService of one node.
type Server struct {
	storagepb.UnimplementedStoreServiceServer

	cfg       Config
	baseCtx   context.Context
	kv        kv.Store
	replicas  *kv.Replicated
	tenants   *kv.Registry
	tenantCtx map[string]context.Context
	db        *sql.DB
	pool      *peer.Pool
	addrs     *peer.AddrCache
	audit     *Audit
	health    healthChecker
	locks     *lockTable
	syncer    *groupSyncer
	limiter   *limiter
	appliers  sync.Pool
	log       *slog.Logger
	scanned   obs.Counter
	ready     atomic.Bool

	tombstones *worker.Batcher[tombstone]

	mu    sync.Mutex
	conns map[string]*grpc.ClientConn
}

// NewServer builds the store service; ctx is the server's lifetime.
func NewServer(ctx context.Context, cfg Config, store kv.Store, replica *kv.SQLStore, tenants *kv.Registry,
	db *sql.DB, pool *peer.Pool, addrs *peer.AddrCache) *Server {
	s := &Server{
		cfg:       cfg,
		baseCtx:   ctx,
		kv:        store,
		replicas:  kv.NewReplicated(store, replica),
		tenants:   tenants,
		tenantCtx: map[string]context.Context{},
		db:        db,
		pool:      pool,
		addrs:     addrs,
		audit:     &Audit{db: db},
		health:    &memHealth{},
		locks:     &lockTable{store: store},
		syncer:    &groupSyncer{db: db},
		limiter:   &limiter{perTenant: map[string]*atomic.Int64{}, limit: 1000},
		log:       slog.Default().With("component", "store"),
		scanned:   obs.NewCounter("store_scanned_keys_total"),
		conns:     map[string]*grpc.ClientConn{},
	}
	for _, t := range cfg.Tenants {
		s.tenantCtx[t] = obs.WithTenant(ctx, t)
	}
	s.appliers.New = func() any { return &applier{store: store} }
	s.tombstones = worker.NewBatcher(128, time.Second, s.flushTombstones)
	s.ready.Store(true)
	return s
}

// Register registers the service on srv.
func (s *Server) Register(srv *grpc.Server) { storagepb.RegisterStoreServiceServer(srv, s) }

func (s *Server) flushTombstones(ctx context.Context, items []tombstone) error {
	for _, t := range items {
		if _, err := s.kv.Put(ctx, append([]byte("tomb/"), t.key...), []byte(t.at.Format(time.RFC3339Nano))); err != nil {
			return err
		}
	}
	return nil
}

func (s *Server) regionOf(key []byte) uint64 {
	h := fnv.New64a()
	h.Write(key)
	return h.Sum64()%max(s.cfg.Regions, 1) + 1
}

func (s *Server) Get(ctx context.Context, req *storagepb.GetRequest) (*storagepb.GetResponse, error) {
	if !s.limiter.allow(req.GetTenant()) {
		time.Sleep(s.cfg.Penalty) // OK: ctxless — one deliberate sleep (a rate limiter's penalty), not in a loop
	}
	s.log.Info("get", "tenant", req.GetTenant()) // OK: ctxless — slog's InfoContext twin only reads values from its ctx
	if region := s.regionOf(req.GetKey()); !s.cfg.Owned[region] {
		addr, err := s.addrs.Resolve(region) // BUG: ctxbackground
		if err != nil {
			return nil, err
		}
		if _, ok := s.pool.Lookup(addr); !ok { // OK: ctxless — LookupContext only logs with its ctx (reads its values)
			s.log.Debug("forwarding to a new peer", "addr", addr)
		}
		var resp *storagepb.GetResponse
		err = s.pool.WithClient(context.Background(), addr, func(c storagepb.StoreServiceClient) error { // OK: ctxbackground — WithClient only asks its ctx whether it is done (ctx.Err() after fn ran with the request ctx) to decide whether to drop the cached connection; its dial is Background-only dialing
			var err error
			resp, err = c.Get(ctx, req)
			return err
		})
		return resp, err
	}
	v, ver, err := s.replicas.ReadThrough(ctx, req.GetKey()) // BUG: ctxbackground
	if err != nil {
		if errors.Is(err, kv.ErrNotFound) {
			return &storagepb.GetResponse{}, nil
		}
		if st, ok := status.FromError(err); ok && st.Code() != codes.Unknown {
			return nil, st.Err()
		}
		return nil, status.Errorf(codes.Unavailable, "read %q: %v", req.GetKey(), err) // OK: statusmask — status.FromError of the error tells the codes apart first
	}
	return &storagepb.GetResponse{Found: true, Kv: &storagepb.KV{Key: req.GetKey(), Value: v, Version: ver}}, nil
}

func (s *Server) Put(ctx context.Context, req *storagepb.PutRequest) (*storagepb.PutResponse, error) {
	ctx = withTenant(ctx, req.GetTenant())    // OK: ctxbackground — withTenant's Background is only the fallback of a nil check of the ctx it is given
	st, err := s.tenants.For(req.GetTenant()) // OK: ctxbackground — per-tenant store opened once: key absent from a map field that For fills while holding its lock until it returns
	if err != nil {
		return nil, status.Errorf(codes.NotFound, "tenant %q: %v", req.GetTenant(), err) // OK: statusmask — For is given no ctx (it opens the store on a fresh budget of its own): not the request's deadline
	}
	tctx, ok := s.tenantCtx[req.GetTenant()]
	if !ok {
		return nil, status.Errorf(codes.NotFound, "tenant %q is not served here", req.GetTenant())
	}
	ver, err := st.Put(tctx, req.GetKv().GetKey(), req.GetKv().GetValue()) // BUG: ctxflow
	if err != nil {
		return nil, err
	}
	select {
	case err := <-s.syncer.Sync(context.Background()): // OK: ctxbackground — Sync uses its ctx only in the group-commit goroutine it starts, returning the channel that goroutine fills
		if err != nil {
			return nil, err
		}
	case <-ctx.Done():
		return nil, status.FromContextError(ctx.Err()).Err()
	}
	actx := context.WithoutCancel(ctx)
	// ^BUG: detach
	go s.recordAudit(actx, "put", req.GetTenant(), req.GetKv().GetKey())
	return &storagepb.PutResponse{Version: ver}, nil
}

func (s *Server) recordAudit(ctx context.Context, op, tenant string, key []byte) {
	if err := s.audit.Write(ctx, op, tenant, key); err != nil {
		obs.Warn(ctx, "store: audit row lost", "op", op, "err", err)
	}
}

func (s *Server) Delete(ctx context.Context, req *storagepb.DeleteRequest) (*storagepb.DeleteResponse, error) {
	release, err := s.locks.acquire(ctx, req.GetKey())
	if err != nil {
		return nil, err
	}
	defer func() {
		rctx, cancel := context.WithTimeout(context.Background(), time.Second) // OK: ctxbackground — bounded fresh ctx inside a deferred literal: the lock is released whether or not the caller is still there
		defer cancel()
		release(rctx)
	}()
	if err := s.kv.Delete(ctx, req.GetKey()); err != nil {
		return nil, status.Error(codes.Internal, "delete: "+err.Error()) // BUG: statusmask
	}
	for _, addr := range s.cfg.Followers {
		s.mu.Lock()
		cc, ok := s.conns[addr]
		if !ok {
			cc, err = peer.Dial(s.baseCtx, addr) // OK: ctxflow — a dial helper that only dials with the server ctx; the connection is kept in s.conns for later requests
			if err == nil {
				s.conns[addr] = cc
			}
		}
		s.mu.Unlock()
		if err != nil {
			return nil, err
		}
		if _, err := storagepb.NewStoreServiceClient(cc).Delete(ctx, req); err != nil {
			s.log.Warn("follower delete failed", "addr", addr, "err", err)
		}
	}
	ictx, icancel := context.WithTimeout(context.Background(), time.Second) // OK?: ctxbackground — a bounded fresh budget the handler itself picks for a cache invalidation after the delete succeeded; the catalogue excuses this only in helpers, deferred code or error paths
	s.invalidateCaches(ictx, req.GetKey())
	icancel()
	s.tombstones.Add(tombstone{key: req.GetKey(), at: time.Now()})                                                    // OK: ctxbackground — a full batch is flushed on a goroutine Add starts: batcher work after the request
	if err := s.audit.WriteBounded(context.WithoutCancel(ctx), "delete", req.GetTenant(), req.GetKey()); err != nil { // OK: detach — bounded inside the callee (WriteBounded applies WithTimeout)
		s.log.Warn("audit row lost", "err", err)
	}
	return &storagepb.DeleteResponse{}, nil
}

func (s *Server) invalidateCaches(ctx context.Context, key []byte) {
	if err := s.kv.Delete(ctx, append([]byte("cache/"), key...)); err != nil {
		obs.Warn(ctx, "store: cache invalidation failed", "err", err)
	}
}

func (s *Server) Scan(req *storagepb.ScanRequest, stream grpc.ServerStreamingServer[storagepb.KV]) error {
	ctx := stream.Context()
	for attempt := 0; !s.ready.Load(); attempt++ {
		if err := ctx.Err(); err != nil {
			return status.FromContextError(err).Err()
		}
		time.Sleep(backoff(attempt)) // OK: ctxless — every turn of the loop calls ctx.Err()
	}
	if err := s.health.Check(s.baseCtx); err != nil { // OK: ctxflow — the field only ever holds the package's memHealth, which answers from memory and uses its ctx only to log
		return status.Error(codes.Unavailable, err.Error()) // OK: statusmask — the error is of a call given the server's ctx, whose callee only logs with it
	}
	var schema int
	if err := retry(3, func() error {
		return s.db.QueryRow("SELECT version FROM schema_meta").Scan(&schema) // BUG: ctxless
	}); err != nil {
		return err
	}
	scanID := time.Now().UnixNano()
	if _, err := s.db.ExecContext(ctx, "INSERT INTO active_scans (id, schema) VALUES (?, ?)", scanID, schema); err != nil {
		return err
	}
	stop := context.AfterFunc(ctx, func() {
		_, _ = s.db.ExecContext(context.Background(), "DELETE FROM active_scans WHERE id = ?", scanID) // OK: ctxbackground — runs only once the request ctx is done (context.AfterFunc)
	})
	defer stop()
	n := 0
	var sendErr error
	err := s.kv.Scan(ctx, req.GetStart(), req.GetEnd(), func(k, v []byte) bool {
		if sendErr = stream.Send(&storagepb.KV{Key: k, Value: v}); sendErr != nil {
			return false
		}
		n++
		return req.GetLimit() == 0 || n < int(req.GetLimit())
	})
	s.scanned.Add(ctx, int64(n))
	if err == nil {
		err = sendErr
	}
	return err
}

func (s *Server) Replicate(stream grpc.BidiStreamingServer[storagepb.ReplicateRequest, storagepb.ReplicateResponse]) error {
	ctx := stream.Context()
	// The applier must not inherit the leader's short per-stream deadline in
	// the middle of a batch, but it stops as soon as the leader goes away.
	actx, cancel := context.WithCancel(context.Background()) // OK: ctxbackground — root tied to the request: context.AfterFunc(ctx, cancel) below
	defer cancel()
	stop := context.AfterFunc(ctx, cancel)
	defer stop()
	a := s.appliers.Get().(*applier)
	a.SetContext(actx)
	for {
		req, err := stream.Recv()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return err
		}
		idx, err := a.Apply(req.GetRegionId(), req.GetEntries())
		if err != nil {
			return err
		}
		if err := stream.Send(&storagepb.ReplicateResponse{AppliedIndex: idx}); err != nil {
			return err
		}
	}
	a.SetContext(context.Background()) // OK: ctxbackground — reset of a pooled applier's idle ctx through the same setter, before it goes back to the pool
	s.appliers.Put(a)
	// the ack row must be written even if the leader hung up after its last batch
	rctx := context.WithoutCancel(ctx) // OK: detach — the comment above the statement is the reason
	return s.audit.Write(rctx, "replicate", "", nil)
}

// Close stops the batcher and closes peer connections.
func (s *Server) Close() error {
	s.tombstones.Close()
	s.mu.Lock()
	defer s.mu.Unlock()
	var errs []error
	for _, cc := range s.conns {
		errs = append(errs, cc.Close())
	}
	return errors.Join(errs...)
}
