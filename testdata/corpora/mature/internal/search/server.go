package search

import (
	"bytes"
	"context"
	"database/sql"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os/exec"
	"strconv"
	"strings"
	"sync/atomic"
	"time"

	"golang.org/x/sync/errgroup"
	"golang.org/x/sync/singleflight"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/peer"
	"google.golang.org/grpc/status"

	searchv1 "example.test/mature/gen/search/v1"
)

var errApplyTimeout = errors.New("search: in-memory apply timed out")

// indexCtx scopes index maintenance for the life of the process; Shutdown
// cancels it.
var indexCtx, cancelIndex = context.WithCancel(context.Background()) // OK

// Shutdown stops index maintenance. searchd calls it after GracefulStop.
func Shutdown() { cancelIndex() }

// Config tunes the server.
type Config struct {
	LoadTimeout    time.Duration
	QueryBudget    time.Duration
	SuggestBudget  time.Duration
	CompactEvery   time.Duration
	CompactBackoff time.Duration
	CompactTool    string
	VerifyTool     string
	IndexDir       string
}

// Server implements searchv1.SearchServiceServer.
type Server struct {
	searchv1.UnimplementedSearchServiceServer

	idx *Index
	db  *sql.DB
	log *slog.Logger
	cfg Config
	hot singleflight.Group
}

// NewServer loads the index and returns a ready Server.
func NewServer(db *sql.DB, log *slog.Logger, cfg Config) (*Server, error) {
	ctx, cancel := context.WithTimeout(context.Background(), cfg.LoadTimeout) // OK
	defer cancel()
	idx, err := LoadIndex(ctx, db)
	if err != nil {
		return nil, fmt.Errorf("search: load index: %w", err)
	}
	return &Server{idx: idx, db: db, log: log, cfg: cfg}, nil
}

// RunCompactor flushes and compacts the index every CompactEvery until ctx is
// done. searchd runs it in its own goroutine.
func (s *Server) RunCompactor(ctx context.Context) {
	for {
		select {
		case <-ctx.Done():
			return
		case <-time.After(s.cfg.CompactEvery):
		}
		mctx, cancel := context.WithTimeout(indexCtx, time.Minute) // OK
		n, err := s.idx.Flush(mctx)
		if err == nil {
			_, err = s.idx.Compact(mctx)
		}
		cancel()
		if err != nil {
			s.log.Warn("index maintenance failed", "err", err)
			time.Sleep(s.cfg.CompactBackoff) // OK
			continue
		}
		s.log.Debug("index maintenance done", "flushed", n)
	}
}

func toStatus(err error) error {
	switch {
	case err == nil:
		return nil
	case errors.Is(err, context.Canceled), errors.Is(err, context.DeadlineExceeded):
		return status.FromContextError(err).Err()
	}
	if _, ok := status.FromError(err); ok {
		return err
	}
	return status.Error(codes.Internal, err.Error())
}

// Search answers a full-text query.
func (s *Server) Search(ctx context.Context, req *searchv1.SearchRequest) (*searchv1.SearchResponse, error) {
	q := strings.TrimSpace(req.GetQuery())
	if q == "" {
		return nil, status.Error(codes.InvalidArgument, "query is required")
	}
	limit := int(req.GetLimit())
	if limit <= 0 || limit > 100 {
		limit = 20
	}
	key := req.GetWarehouse() + "\x00" + q + "\x00" + strconv.Itoa(limit)
	v, err, shared := s.hot.Do(key, func() (any, error) {
		//deadlinelint:ignore ctxbackground one lookup answers every concurrent caller of a hot query, so no single caller may cancel it; bounded by QueryBudget
		qctx, cancel := context.WithTimeout(context.Background(), s.cfg.QueryBudget) // OK
		defer cancel()
		return s.idx.Search(qctx, req.GetWarehouse(), q, limit)
	})
	if err != nil {
		return nil, toStatus(err)
	}
	s.log.DebugContext(ctx, "search", "query", q, "shared", shared) // OK
	resp := &searchv1.SearchResponse{}
	for _, h := range v.([]Hit) {
		resp.Hits = append(resp.Hits, &searchv1.SearchHit{Sku: h.SKU, Name: h.Name, Score: h.Score})
	}
	return resp, nil
}

// IndexItem queues one document and applies it to the in-memory index.
func (s *Server) IndexItem(ctx context.Context, req *searchv1.IndexItemRequest) (*searchv1.IndexItemResponse, error) {
	doc := Doc{SKU: req.GetSku(), Name: req.GetName(), Warehouse: req.GetWarehouse()}
	if doc.SKU == "" {
		return nil, status.Error(codes.InvalidArgument, "sku is required")
	}
	tx, err := s.db.BeginTx(ctx, nil) // OK
	if err != nil {
		return nil, toStatus(err)
	}
	defer func() { _ = tx.Rollback() }()
	if _, err := tx.ExecContext(ctx, `DELETE FROM search_pending WHERE sku = $1`, doc.SKU); err != nil { // OK
		return nil, toStatus(err)
	}
	if _, err := tx.Exec(`INSERT INTO search_pending (sku, name, warehouse, queued_at) VALUES ($1, $2, $3, now())`, doc.SKU, doc.Name, doc.Warehouse); err != nil { // BUG: ctxless
		return nil, toStatus(err)
	}
	if err := tx.Commit(); err != nil { // OK
		return nil, toStatus(err)
	}

	// The pending row is durable, so the caller gets its answer now; applying the
	// document to the in-memory index may finish after the caller has gone, but
	// within two seconds.
	actx, cancel := context.WithTimeoutCause(context.WithoutCancel(ctx), 2*time.Second, errApplyTimeout) // OK
	go func() {
		defer cancel()
		if err := s.idx.Apply(actx, doc); err != nil {
			s.log.WarnContext(actx, "apply failed", "sku", doc.SKU, "err", err)
		}
	}()
	return &searchv1.IndexItemResponse{}, nil
}

// Reindex rebuilds the documents of one warehouse from the items table.
func (s *Server) Reindex(ctx context.Context, req *searchv1.ReindexRequest) (*searchv1.ReindexResponse, error) {
	batch := int(req.GetBatchSize())
	if batch <= 0 {
		batch = 200
	}
	g, gctx := errgroup.WithContext(ctx) // OK
	docs := make(chan Doc, batch)
	g.Go(func() error {
		defer close(docs)
		return s.loadDocs(gctx, req.GetWarehouse(), docs) // OK
	})
	var indexed atomic.Int32
	for range 4 {
		g.Go(func() error {
			for d := range docs {
				if err := s.idx.Add(gctx, d); err != nil { // OK
					return err
				}
				indexed.Add(1)
			}
			return nil
		})
	}
	if err := g.Wait(); err != nil {
		return nil, toStatus(err)
	}
	return &searchv1.ReindexResponse{Indexed: indexed.Load()}, nil
}

func (s *Server) loadDocs(ctx context.Context, warehouse string, out chan<- Doc) error {
	rows, err := s.db.QueryContext(ctx, `SELECT sku, name, warehouse FROM items WHERE ($1 = '' OR warehouse = $1)`, warehouse)
	if err != nil {
		return err
	}
	defer rows.Close()
	for rows.Next() {
		var d Doc
		if err := rows.Scan(&d.SKU, &d.Name, &d.Warehouse); err != nil {
			return err
		}
		select {
		case out <- d:
		case <-ctx.Done():
			return ctx.Err()
		}
	}
	return rows.Err()
}

// Stats reports the index size and the pending queue length.
func (s *Server) Stats(ctx context.Context, req *searchv1.StatsRequest) (*searchv1.StatsResponse, error) {
	var pending int64
	if err := s.db.QueryRowContext(ctx, `SELECT count(*) FROM search_pending`).Scan(&pending); err != nil { // OK
		return nil, toStatus(err)
	}
	return &searchv1.StatsResponse{Documents: int64(s.idx.Len()), Pending: pending}, nil
}

// Flush writes the applied documents to the table.
func (s *Server) Flush(ctx context.Context, req *searchv1.FlushRequest) (*searchv1.FlushResponse, error) {
	if p, ok := peer.FromContext(ctx); ok { // OK
		s.log.InfoContext(ctx, "flush requested", "peer", p.Addr.String()) // OK
	}
	n, err := s.idx.Flush(indexCtx) // BUG: ctxflow
	if err != nil {
		return nil, toStatus(err)
	}
	return &searchv1.FlushResponse{Flushed: int64(n)}, nil
}

// Compact runs the external segment compactor and reloads the index.
func (s *Server) Compact(ctx context.Context, req *searchv1.CompactRequest) (*searchv1.CompactResponse, error) {
	if s.cfg.CompactTool == "" {
		return nil, status.Error(codes.Unimplemented, "no compaction tool configured")
	}
	//deadlinelint:ignore ctxless killing the compactor mid-segment corrupts the on-disk index; the tool enforces its own -timeout
	cmd := exec.Command(s.cfg.CompactTool, "-dir", s.cfg.IndexDir, "-timeout", "60s") // OK
	out, err := cmd.CombinedOutput()
	if err != nil {
		return nil, status.Errorf(codes.Internal, "compaction failed: %v: %s", err, out)
	}
	if s.cfg.VerifyTool != "" {
		if vout, err := exec.CommandContext(ctx, s.cfg.VerifyTool, "-dir", s.cfg.IndexDir).CombinedOutput(); err != nil { // OK
			return nil, status.Errorf(codes.DataLoss, "verification failed: %v: %s", err, vout)
		}
	}
	if err := s.idx.Reload(ctx); err != nil {
		return nil, toStatus(err)
	}
	return &searchv1.CompactResponse{Segments: int64(bytes.Count(out, []byte("\n")))}, nil
}

// Export streams every document of a warehouse.
func (s *Server) Export(req *searchv1.ExportRequest, stream searchv1.SearchService_ExportServer) error {
	ctx := stream.Context()
	rows, err := s.db.QueryContext(ctx, `SELECT sku, name FROM search_docs WHERE ($1 = '' OR warehouse = $1) ORDER BY sku`, req.GetWarehouse()) // OK
	if err != nil {
		return toStatus(err)
	}
	defer rows.Close()
	for rows.Next() {
		hit := &searchv1.SearchHit{}
		if err := rows.Scan(&hit.Sku, &hit.Name); err != nil {
			return toStatus(err)
		}
		if err := stream.Send(hit); err != nil {
			return err
		}
	}
	return toStatus(rows.Err())
}

// Suggest answers a stream of prefixes with completions, one reply per prefix.
func (s *Server) Suggest(stream searchv1.SearchService_SuggestServer) error {
	ctx := stream.Context()
	s.log.DebugContext(ctx, "suggest stream opened") // OK
	for {
		in, err := stream.Recv()
		if errors.Is(err, io.EOF) {
			return nil
		}
		if err != nil {
			return err
		}
		mctx, cancel := context.WithTimeout(context.Background(), s.cfg.SuggestBudget) // BUG: ctxbackground
		completions, err := s.idx.Suggest(mctx, in.GetPrefix(), 10)
		cancel()
		if errors.Is(err, context.DeadlineExceeded) {
			continue // a slow keystroke is skipped; the next prefix supersedes it
		}
		if err != nil {
			return toStatus(err)
		}
		if err := stream.Send(&searchv1.SuggestResponse{Completions: completions}); err != nil {
			return err
		}
	}
}
