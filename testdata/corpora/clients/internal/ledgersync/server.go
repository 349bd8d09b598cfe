// Package ledgersync implements the LedgerSync service: it copies billing's
// view of an account into the ledger database.
package ledgersync

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"log/slog"
	"time"

	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	billingv1 "example.test/clients/gen/billing/v1"
	ledgerv1 "example.test/clients/gen/ledger/v1"
	"example.test/clients/pkg/sdk"
)

const (
	insertInvoiceEntry = `INSERT INTO ledger_entries (entry_id, account_id, amount_cents, source)
		VALUES ($1, $2, $3, 'invoice') ON CONFLICT (entry_id) DO NOTHING`
	advanceCursor = `INSERT INTO ledger_cursor (account_id, synced_until) VALUES ($1, now())
		ON CONFLICT (account_id) DO UPDATE SET synced_until = now()`
)

// serverCtx is the context of the process, set by main.
var serverCtx = context.Background() // OK

// SetServerContext sets the process context used for background refreshes.
func SetServerContext(ctx context.Context) { serverCtx = ctx }

// Server implements ledgerv1.LedgerSyncServer.
type Server struct {
	ledgerv1.UnimplementedLedgerSyncServer

	db      *sql.DB
	sdk     *sdk.Client
	billing billingv1.BillingServiceClient
	baseCtx context.Context
	log     *slog.Logger
}

// New checks that billing answers and returns a Server.
func New(ctx context.Context, db *sql.DB, c *sdk.Client, billing billingv1.BillingServiceClient, log *slog.Logger) (*Server, error) {
	wctx, cancel := context.WithTimeout(context.Background(), 5*time.Second) // OK
	defer cancel()
	if _, err := billing.GetQuota(wctx, &billingv1.GetQuotaRequest{AccountId: "ledger-probe"}); err != nil && status.Code(err) != codes.NotFound { // OK
		return nil, fmt.Errorf("ledgersync: billing not reachable: %w", err)
	}
	return &Server{db: db, sdk: c, billing: billing, baseCtx: ctx, log: log}, nil
}

func (s *Server) rootContext() context.Context { return s.baseCtx }

func (s *Server) SyncAccount(ctx context.Context, req *ledgerv1.SyncAccountRequest) (*ledgerv1.SyncAccountResponse, error) {
	acct := req.GetAccountId()
	if acct == "" {
		return nil, status.Error(codes.InvalidArgument, "account_id is required")
	}

	var quota *billingv1.Quota
	var err error
	for attempt := 0; attempt < 3; attempt++ {
		actx, cancel := context.WithTimeout(context.Background(), 2*time.Second) // BUG: ctxbackground
		quota, err = s.billing.GetQuota(actx, &billingv1.GetQuotaRequest{AccountId: acct})
		cancel()
		if err == nil || status.Code(err) != codes.Unavailable {
			break
		}
	}
	if err != nil {
		return nil, err
	}

	var since time.Time
	err = s.db.QueryRowContext(ctx, `SELECT synced_until FROM ledger_cursor WHERE account_id = $1`, acct).Scan(&since) // OK
	if err != nil && !errors.Is(err, sql.ErrNoRows) {
		return nil, status.Errorf(codes.Internal, "cursor: %v", err)
	}
	if req.GetForce() {
		since = time.Time{}
	}

	written := 0
	err = s.sdk.ListInvoices(ctx, acct, since, func(inv *billingv1.Invoice) error { // OK
		_, err := s.db.ExecContext(ctx, insertInvoiceEntry, inv.GetInvoiceId(), acct, inv.GetAmountDueCents()) // OK
		if err == nil {
			written++
		}
		return err
	})
	if err != nil {
		return nil, status.Errorf(codes.Unavailable, "copy invoices: %v", err)
	}

	rows, err := s.db.Query(`SELECT amount_cents FROM ledger_entries WHERE account_id = $1`, acct) // BUG: ctxless
	if err != nil {
		return nil, status.Errorf(codes.Internal, "balance: %v", err)
	}
	defer rows.Close()
	var balance int64
	for rows.Next() {
		var c int64
		if err := rows.Scan(&c); err != nil {
			return nil, status.Errorf(codes.Internal, "balance: %v", err)
		}
		balance += c
	}
	if err := rows.Err(); err != nil {
		return nil, status.Errorf(codes.Internal, "balance: %v", err)
	}

	if _, err := s.db.ExecContext(s.rootContext(), advanceCursor, acct); err != nil { // BUG: ctxflow
		s.log.Warn("cursor not advanced", "account", acct, "err", err)
	}

	if quota.GetLimitCents() > 0 && balance > quota.GetLimitCents() {
		// Over quota: the account has to be flagged even if the caller gives up
		// now, or it keeps buying on credit until the next sync.
		dctx := context.WithoutCancel(ctx)
		// ^BUG: detach
		fctx, cancel := context.WithTimeout(dctx, 3*time.Second)
		defer cancel()
		if _, err := s.db.ExecContext(fctx, `UPDATE accounts SET over_quota = true WHERE id = $1`, acct); err != nil { // OK
			s.log.Warn("over-quota flag not set", "account", acct, "err", err)
		}
		if _, err := s.sdk.EnqueueJob(dctx, "quota-exceeded", []byte(acct)); err != nil {
			s.log.Warn("quota job not enqueued", "account", acct, "err", err)
		}
	}

	if req.GetForce() {
		if _, err := s.sdk.EnqueueJob(serverCtx, "ledger-reindex", []byte(acct)); err != nil { // BUG: ctxflow
			s.log.Warn("reindex not scheduled", "account", acct, "err", err)
		}
	}

	if err := s.sdk.FlushUsage(int64(written)); err != nil { // BUG: ctxbackground
		s.log.Warn("usage not reported", "err", err)
	}
	return &ledgerv1.SyncAccountResponse{AccountId: acct, BalanceCents: balance, EntriesWritten: int32(written)}, nil
}

// CompactLoop deletes old push summaries every interval. It is started once,
// from main, and runs for the life of the process.
func (s *Server) CompactLoop(interval time.Duration) {
	t := time.NewTicker(interval)
	defer t.Stop()
	for range t.C {
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute)                                         // OK
		res, err := s.db.ExecContext(ctx, `DELETE FROM push_summaries WHERE created_at < now() - interval '90 days'`) // OK
		cancel()
		if err != nil {
			s.log.Warn("compaction failed", "err", err)
			continue
		}
		if n, _ := res.RowsAffected(); n > 0 {
			s.log.Info("compacted push summaries", "rows", n)
		}
	}
}
