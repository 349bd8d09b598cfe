package cas

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strings"
	"sync"
	"time"

	"example.test/buildcache/gen/bcv1"
	"example.test/buildcache/internal/obs"
	"example.test/buildcache/internal/proxy"
	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
)

// Server implements ContentAddressableStorage.
type Server struct {
	bcv1.UnimplementedContentAddressableStorageServer
	db      *sql.DB
	store   *DiskStore
	index   *Index
	proxy   *proxy.Backend
	repl    *Replicator
	batcher *Batcher
	reqs    *obs.Counter
	lat     *obs.Histogram

	capsOnce sync.Once
	caps     *bcv1.Capabilities
}

// NewServer wires a CAS server.
func NewServer(db *sql.DB, dir string, up *proxy.Backend, peer bcv1.ContentAddressableStorageClient) *Server {
	ix := NewIndex(db)
	return &Server{
		db: db, store: NewDiskStore(dir, db), index: ix, proxy: up,
		repl: &Replicator{peer: peer}, batcher: NewBatcher(ix),
		reqs: obs.NewCounter("cas_requests"), lat: &obs.Histogram{},
	}
}

// Register adds the CAS and ByteStream services to srv.
func Register(srv *grpc.Server, s *Server, bs *ByteStream) {
	bcv1.RegisterContentAddressableStorageServer(srv, s)
	bcv1.RegisterByteStreamServer(srv, bs)
}

func (s *Server) FindMissingBlobs(ctx context.Context, req *bcv1.FindMissingBlobsRequest) (*bcv1.FindMissingBlobsResponse, error) {
	start := time.Now()
	defer func() { s.lat.Record(context.Background(), time.Since(start).Seconds()) }() // OK: ctxbackground — metric record in a deferred call
	obs.Log.Info(context.TODO(), "find missing", "n", len(req.GetDigests())) // OK: ctxbackground — the logger only reads values
	s.reqs.Add(context.Background(), 1) // OK: ctxbackground — Counter.Add never uses its ctx
	_ = s.index.Tenant(req.GetInstance()) // OK: ctxbackground — per-tenant table created once, under the index lock
	missing, err := s.index.Missing(ctx, req.GetInstance(), req.GetDigests()) // BUG: ctxbackground — Index.Missing runs its query on context.Background()
	if err != nil {
		return nil, status.Error(codes.Unavailable, "index: "+err.Error()) // OK: statusmask — Missing does its work on a fresh root and only logs with ctx
	}
	return &bcv1.FindMissingBlobsResponse{Missing: missing}, nil
}

func (s *Server) BatchReadBlobs(ctx context.Context, req *bcv1.BatchReadBlobsRequest) (*bcv1.BatchReadBlobsResponse, error) {
	s.reqs.Add(ctx, 1)
	resp := &bcv1.BatchReadBlobsResponse{}
	for _, d := range req.GetDigests() {
		data, err := s.store.Get(ctx, d)
		if errors.Is(err, ErrNotFound) && s.proxy != nil {
			data, err = s.proxy.Fetch(ctx, d) // BUG: ctxbackground — proxy.Backend.Fetch swaps the caller's budget for WithTimeout(Background, 30s)
		}
		if err != nil {
			return nil, status.Errorf(codes.Internal, "read %s: %v", d.GetHash(), err) // BUG: statusmask — the sentinel test only tells NotFound apart; a deadline from store.Get becomes Internal
		}
		resp.Blobs = append(resp.Blobs, &bcv1.Blob{Digest: d, Data: data})
	}
	s.repl.Warm(s.index, req.GetInstance(), req.GetDigests()) // OK: ctxbackground — Warm's root lives on a goroutine Warm starts
	return resp, nil
}

func (s *Server) BatchUpdateBlobs(ctx context.Context, req *bcv1.BatchUpdateBlobsRequest) (*bcv1.BatchUpdateBlobsResponse, error) {
	resp := &bcv1.BatchUpdateBlobsResponse{}
	for _, b := range req.GetBlobs() {
		if err := s.store.Put(ctx, b.GetDigest(), b.GetData()); err != nil {
			if ctx.Err() != nil {
				return nil, status.FromContextError(ctx.Err()).Err()
			}
			return nil, status.Errorf(codes.Internal, "put %s: %v", b.GetDigest().GetHash(), err) // OK: statusmask — ctx.Err() is checked first
		}
		s.batcher.Add(ctx, b.GetDigest()) // OK: ctxbackground — queued for the batcher's own loop
		resp.Stored = append(resp.Stored, b.GetDigest())
	}
	if s.repl.peer != nil {
		blobs := req.GetBlobs()
		go func() {
			if err := s.repl.Push(context.Background(), blobs); err != nil { // BUG: ctxbackground — unbounded fresh root on a goroutine the handler starts
				obs.Log.Error(context.Background(), "replicate", "err", err) // OK: ctxbackground — logging only
			}
		}()
	}
	go s.prefetch(ctx, req.GetInstance(), resp.Stored)
	s.finalize(ctx, req.GetInstance(), resp.Stored)
	return resp, nil
}

// prefetch waits for the upstream to acknowledge the new blobs.
func (s *Server) prefetch(ctx context.Context, instance string, ds []*bcv1.Digest) {
	for i := 0; i < len(ds); {
		missing, err := s.index.Missing(ctx, instance, ds[i:i+1])
		if err == nil && len(missing) == 0 {
			i++
			continue
		}
		time.Sleep(200 * time.Millisecond) // BUG: ctxless — poll loop in a goroutine the handler starts, never checks ctx
	}
}

func (s *Server) finalize(ctx context.Context, instance string, ds []*bcv1.Digest) {
	fctx := context.WithoutCancel(ctx)
	// ^BUG: detach — detached from the request with neither a bound nor a reason
	go s.index.MarkPresent(fctx, instance, ds)
}

func (s *Server) GetCapabilities(ctx context.Context, _ *bcv1.GetCapabilitiesRequest) (*bcv1.Capabilities, error) {
	s.capsOnce.Do(func() {
		s.caps = s.loadCaps(context.Background()) // OK: ctxbackground — sync.Once initialisation of shared state
	})
	if s.caps == nil {
		return nil, status.Error(codes.Unavailable, "capabilities not loaded")
	}
	return s.caps, nil
}

func (s *Server) loadCaps(ctx context.Context) *bcv1.Capabilities {
	var max int64
	if err := s.db.QueryRowContext(ctx, `SELECT max_batch FROM config`).Scan(&max); err != nil {
		max = 4 << 20
	}
	return &bcv1.Capabilities{MaxBatchBytes: max}
}

// mapStoreErr translates a store error to a status, keeping ctx errors.
func mapStoreErr(op string, err error) error {
	if errors.Is(err, context.DeadlineExceeded) || errors.Is(err, context.Canceled) {
		return status.FromContextError(err).Err()
	}
	if strings.Contains(err.Error(), "no space") {
		return status.Error(codes.ResourceExhausted, op)
	}
	return status.Error(codes.Internal, fmt.Sprintf("%s: %v", op, err))
}
