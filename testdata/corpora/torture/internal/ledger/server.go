// Package ledger implements ledger.v1.LedgerService.
package ledger

import (
	"context"
	"errors"
	"log/slog"
	"time"

	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	ledgerv1 "example.test/torture/gen/ledger/v1"
	"example.test/torture/internal/audit"
	"example.test/torture/internal/ctxkit"
	"example.test/torture/internal/store"
)

const (
	postAttemptBudget    = 800 * time.Millisecond
	eventBudget          = 2 * time.Second
	reconcileParallelism = 4
	defaultGroupDepth    = 6
	historyPage          = 500
	historyThrottle      = 20 * time.Millisecond
)

// Publisher sends ledger events to the outbox.
type Publisher interface {
	Publish(ctx context.Context, kind, id string) error
}

// Server implements ledgerv1.LedgerServiceServer.
type Server struct {
	ledgerv1.UnimplementedLedgerServiceServer

	repo   *store.Repo
	audit  *audit.Writer
	events Publisher
	log    *slog.Logger

	balances *ctxkit.Cache[string, int64]
	memos    *ctxkit.Cache[string, string]
}

// NewServer returns a ledger server.
func NewServer(repo *store.Repo, aw *audit.Writer, events Publisher, log *slog.Logger) *Server {
	s := &Server{repo: repo, audit: aw, events: events, log: log}
	s.balances = ctxkit.NewCache(5*time.Second, func(ctx context.Context, account string) (int64, error) {
		sum, _, err := repo.Balance(ctx, account)
		return sum, err
	})
	s.memos = ctxkit.NewCache[string, string](time.Hour, s.loadMemo)
	return s
}

func (s *Server) loadMemo(ctx context.Context, entryID string) (string, error) {
	return s.repo.Template(ctx, "memo:"+entryID)
}

// outbox is the Publisher used in production: it writes events as audit rows
// that a relay forwards.
type outbox struct{ aw *audit.Writer }

// NewOutbox returns a Publisher writing to aw.
func NewOutbox(aw *audit.Writer) Publisher { return outbox{aw: aw} }

func (o outbox) Publish(ctx context.Context, kind, id string) error {
	return o.aw.Record(ctx, "ledger", kind, id)
}

func toStatus(err error) error {
	switch {
	case err == nil:
		return nil
	case errors.Is(err, store.ErrNotFound):
		return status.Error(codes.NotFound, err.Error())
	case errors.Is(err, context.DeadlineExceeded):
		return status.Error(codes.DeadlineExceeded, err.Error())
	case errors.Is(err, context.Canceled):
		return status.Error(codes.Canceled, err.Error())
	}
	return status.Error(codes.Internal, err.Error())
}
