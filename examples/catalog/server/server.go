// Package server implements catalog.v1.CatalogService on a repository of
// items, the pricing service and an audit log.
package server

import (
	"context"
	"database/sql"
	"errors"
	"time"

	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	"github.com/deadlinelint/deadlinelint/examples/catalog/catalogv1"
	"github.com/deadlinelint/deadlinelint/examples/catalog/internal/audit"
	"github.com/deadlinelint/deadlinelint/examples/catalog/internal/pricing"
	"github.com/deadlinelint/deadlinelint/examples/catalog/internal/store"
)

// Repository stores the catalog's items. store.SQL implements it.
type Repository interface {
	Get(ctx context.Context, id string) (*catalogv1.Item, error)
	List(ctx context.Context, category string, limit int) ([]*catalogv1.Item, error)
	Update(ctx context.Context, item *catalogv1.Item) (*catalogv1.Item, error)
	Delete(ctx context.Context, id string) error
	SKUs(ctx context.Context) ([]string, error)
	SetPrice(ctx context.Context, sku string, cents int64) error
}

// Config is what a Server is built from.
type Config struct {
	Repo   Repository
	Search *sql.DB // the full-text search index, queried directly
	Prices *pricing.Client
	Audit  *audit.Writer
	FXURL  string // the exchange-rate endpoint, answering {"rate": …}
}

// Server serves the catalog. Its background work (RefreshPrices) runs until
// Close.
type Server struct {
	catalogv1.UnimplementedCatalogServiceServer

	baseCtx context.Context // the server's lifetime: done after Close
	stop    context.CancelFunc

	repo   Repository
	search *sql.DB
	prices *pricing.Client
	audit  *audit.Writer
	fxURL  string
}

// How long a handler gives the pricing service, out of its caller's budget.
const quoteTimeout = 300 * time.Millisecond

// New returns a Server built from cfg.
func New(cfg Config) *Server {
	baseCtx, stop := context.WithCancel(context.Background())
	return &Server{
		baseCtx: baseCtx,
		stop:    stop,
		repo:    cfg.Repo,
		search:  cfg.Search,
		prices:  cfg.Prices,
		audit:   cfg.Audit,
		fxURL:   cfg.FXURL,
	}
}

// Close stops the background work and records the shutdown in the audit log.
func (s *Server) Close() error {
	s.stop()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	return s.audit.Write(ctx, audit.Entry{Actor: "catalogd", Action: "shutdown"})
}

// toStatus maps a repository or context error to a gRPC status, keeping
// DeadlineExceeded and Canceled so that callers can tell time-outs from bugs.
func toStatus(err error) error {
	switch {
	case errors.Is(err, store.ErrNotFound):
		return status.Error(codes.NotFound, err.Error())
	case errors.Is(err, store.ErrConflict):
		return status.Error(codes.Aborted, err.Error())
	case errors.Is(err, context.DeadlineExceeded), errors.Is(err, context.Canceled):
		return status.FromContextError(err).Err()
	}
	return status.Error(codes.Internal, err.Error())
}

// pageSize bounds a requested page size.
func pageSize(requested int32) int {
	const defaultSize, maxSize = 50, 500
	switch {
	case requested <= 0:
		return defaultSize
	case requested > maxSize:
		return maxSize
	}
	return int(requested)
}
