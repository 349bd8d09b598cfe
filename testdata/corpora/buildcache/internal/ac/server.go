// Package ac serves the action cache.
package ac

import (
	"context"
	"database/sql"
	"errors"
	"sync/atomic"
	"time"

	"example.test/buildcache/gen/bcv1"
	"example.test/buildcache/internal/obs"
	"example.test/buildcache/internal/proxy"
	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/proto"
)

// Server implements ActionCache.
type Server struct {
	bcv1.UnimplementedActionCacheServer
	db        *sql.DB
	baseCtx   context.Context
	validator *Validator
	audit     *Audit
	s3        *proxy.Backend
	clusterID atomic.Pointer[string]
	hits      *obs.Counter
}

// New returns an action cache; ctx is the server's lifetime.
func New(ctx context.Context, db *sql.DB, cas bcv1.ContentAddressableStorageClient, s3 *proxy.Backend) *Server {
	return &Server{db: db, baseCtx: ctx, validator: &Validator{cas: cas}, audit: &Audit{db: db}, s3: s3, hits: obs.NewCounter("ac_hits")}
}

// Register adds the service to srv.
func Register(srv *grpc.Server, s *Server) { bcv1.RegisterActionCacheServer(srv, s) }

func actionKey(instance string, d *bcv1.Digest) string { return instance + "/" + d.GetHash() }

func (s *Server) GetActionResult(ctx context.Context, req *bcv1.GetActionResultRequest) (*bcv1.ActionResult, error) {
	key := actionKey(req.GetInstance(), req.GetActionDigest())
	obs.Log.Info(context.Background(), "ac get", "key", key) // OK: ctxbackground — a root used only to log
	var blob []byte
	err := s.db.QueryRowContext(context.Background(), `SELECT result FROM ac WHERE key = $1`, key).Scan(&blob) // BUG: ctxbackground — the lookup ignores the caller's deadline
	if errors.Is(err, sql.ErrNoRows) {
		blob, err = s.s3.Get("ac/" + key) // BUG: ctxless ALSO: ctxbackground — Backend.Get has a GetContext twin that carries the deadline (Get runs it on its own root, which ctxbackground may report too, as the other corpora accept)
	}
	if err != nil {
		return nil, status.Errorf(codes.Internal, "ac lookup: %v", err) // OK: statusmask — the query ran on a fresh root and the blob-store read had no ctx
	}
	res := &bcv1.ActionResult{}
	if err := proto.Unmarshal(blob, res); err != nil {
		return nil, status.Errorf(codes.DataLoss, "corrupt entry: %v", err) // OK: statusmask — decoding error, no ctx
	}
	s.hits.Add(context.TODO(), 1) // OK: ctxbackground — metric Add only
	// Touching the access time must not fail the read once the client has gone.
	tctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), time.Second) // OK: detach — bounded and explained
	defer cancel()
	_, _ = s.db.ExecContext(tctx, `UPDATE ac SET atime = now() WHERE key = $1`, key)
	return res, nil
}

func (s *Server) UpdateActionResult(ctx context.Context, req *bcv1.UpdateActionResultRequest) (*bcv1.ActionResult, error) {
	id, err := s.ClusterID(context.Background()) // OK: ctxbackground — ClusterID queries once and keeps the id in an atomic field
	if err != nil {
		return nil, status.Errorf(codes.Unavailable, "cluster id: %v", err) // OK: statusmask — the query ran on a fresh root
	}
	if err := s.validator.Check(s.baseCtx, req.GetResult()); err != nil { // BUG: ctxflow — validation runs on the server's lifetime ctx
		return nil, status.Errorf(codes.FailedPrecondition, "invalid result: %v", err) // OK: statusmask — the call was given the server's ctx, not the request's
	}
	key := actionKey(req.GetInstance(), req.GetActionDigest())
	if err := s.store(ctx, key, req.GetResult()); err != nil {
		return nil, status.Errorf(codes.Internal, "store %s: %v", key, err) // BUG: statusmask — a deadline from the insert becomes Internal
	}
	go s.audit.Record(context.WithoutCancel(ctx), id, key)
	// ^BUG: detach — the audit write is detached with no bound and no reason
	return req.GetResult(), nil
}

func (s *Server) store(ctx context.Context, key string, res *bcv1.ActionResult) error {
	blob, err := proto.Marshal(res)
	if err != nil {
		return err
	}
	_, err = s.db.ExecContext(ctx, `INSERT INTO ac(key, result) VALUES ($1, $2)`, key, blob)
	return err
}

// ClusterID reads the cluster id once and keeps it.
func (s *Server) ClusterID(ctx context.Context) (string, error) {
	if s.clusterID.Load() == nil {
		var id string
		if err := s.db.QueryRowContext(ctx, `SELECT id FROM cluster`).Scan(&id); err != nil {
			return "", err
		}
		s.clusterID.Store(&id)
	}
	return *s.clusterID.Load(), nil
}
