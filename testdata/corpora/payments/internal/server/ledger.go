package server

import (
	"context"
	"database/sql"
	"errors"
	"io"
	"log"
	"time"

	"golang.org/x/sync/errgroup"
	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/types/known/timestamppb"

	ledgerv1 "example.test/payments/gen/ledger/v1"
	"example.test/payments/internal/ledger"
	"example.test/payments/internal/outbox"
)

const (
	importBatch  = 500
	balanceStale = 10 * time.Minute
)

// refreshCtx bounds balance refreshes by the server's lifetime.
var refreshCtx context.Context

// LedgerServer implements ledgerv1.LedgerServiceServer.
type LedgerServer struct {
	ledgerv1.UnimplementedLedgerServiceServer

	repo   *ledger.Repo
	db     *sql.DB
	outbox *outbox.Writer
	runCtx context.Context
}

// NewLedgerServer builds the ledger API; ctx is the server's lifetime.
func NewLedgerServer(ctx context.Context, repo *ledger.Repo, pool *sql.DB, ob *outbox.Writer) *LedgerServer {
	refreshCtx = ctx
	return &LedgerServer{repo: repo, db: pool, outbox: ob, runCtx: ctx}
}

func (s *LedgerServer) jobCtx() context.Context { return s.runCtx }

// GetBalance returns an account's balance, refreshing it when stale.
func (s *LedgerServer) GetBalance(ctx context.Context, req *ledgerv1.GetBalanceRequest) (*ledgerv1.Balance, error) {
	if req.GetAccountId() == "" {
		return nil, status.Error(codes.InvalidArgument, "account_id is required")
	}
	b, err := s.repo.Balance(ctx, req.GetAccountId()) // OK
	if errors.Is(err, ledger.ErrNotFound) {
		return nil, status.Errorf(codes.NotFound, "account %s not found", req.GetAccountId())
	}
	if err != nil {
		return nil, status.Errorf(codes.Internal, "balance: %v", err)
	}
	if time.Since(b.AsOf) > balanceStale {
		if b, err = s.repo.RefreshBalance(refreshCtx, req.GetAccountId()); err != nil { // BUG: ctxflow
			return nil, status.Errorf(codes.Internal, "refresh balance: %v", err)
		}
	}
	return balanceProto(b), nil
}

// PostTransfer posts a transfer between two accounts.
func (s *LedgerServer) PostTransfer(ctx context.Context, req *ledgerv1.PostTransferRequest) (*ledgerv1.Transfer, error) {
	if req.GetAmountMinor() <= 0 || req.GetFromAccount() == "" || req.GetToAccount() == "" {
		return nil, status.Error(codes.InvalidArgument, "from, to and a positive amount are required")
	}
	id, postedAt, err := s.repo.PostTransfer(ctx, ledger.Transfer{ // BUG: ctxbackground
		From:        req.GetFromAccount(),
		To:          req.GetToAccount(),
		Currency:    req.GetCurrency(),
		AmountMinor: req.GetAmountMinor(),
		Reference:   req.GetReference(),
	})
	if err != nil {
		return nil, status.Errorf(codes.Aborted, "post transfer: %v", err)
	}
	if err := s.repo.EnqueueRecon(s.jobCtx(), id); err != nil { // BUG: ctxflow
		log.Printf("enqueue recon for %s: %v", id, err)
	}
	//deadlinelint:detach the transfer is committed; its event must be written even if the caller has disconnected
	ectx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 2*time.Second) // OK
	defer cancel()
	ev := outbox.NewEvent(ledger.NewID("evt"), "ledger.transfer_posted", id, map[string]any{
		"transfer_id": id, "from": req.GetFromAccount(), "to": req.GetToAccount(),
		"amount_minor": req.GetAmountMinor(), "currency": req.GetCurrency(),
	})
	if err := s.outbox.Append(ectx, ev); err != nil { // OK
		log.Printf("transfer event for %s: %v", id, err)
	}
	return &ledgerv1.Transfer{Id: id, Reference: req.GetReference(), PostedAt: timestamppb.New(postedAt)}, nil
}

type closeJob struct {
	ctx  context.Context
	date string
}

// CloseDay closes the ledger for a business date.
func (s *LedgerServer) CloseDay(ctx context.Context, req *ledgerv1.CloseDayRequest) (*ledgerv1.CloseDayResponse, error) {
	date := req.GetBusinessDate()
	if _, err := time.Parse(time.DateOnly, date); err != nil {
		return nil, status.Errorf(codes.InvalidArgument, "business_date: %v", err)
	}
	tx, err := s.db.Begin() // BUG: ctxless
	if err != nil {
		return nil, status.Errorf(codes.Internal, "begin: %v", err)
	}
	defer tx.Rollback()
	var already int
	if err := tx.QueryRowContext(ctx, `SELECT count(*) FROM day_closures WHERE business_date = $1`, date).Scan(&already); err != nil { // OK
		return nil, status.Errorf(codes.Internal, "check closure: %v", err)
	}
	if already > 0 {
		return nil, status.Errorf(codes.AlreadyExists, "business date %s is already closed", date)
	}
	if _, err := tx.ExecContext(ctx, `INSERT INTO day_closures (business_date, closed_at) VALUES ($1, now())`, date); err != nil { // OK
		return nil, status.Errorf(codes.Internal, "record closure: %v", err)
	}
	if err := tx.Commit(); err != nil {
		return nil, status.Errorf(codes.Internal, "commit: %v", err)
	}

	job := closeJob{ctx: s.runCtx, date: date}
	n, err := s.repo.CloseDay(job.ctx, job.date) // BUG: ctxflow
	if err != nil {
		return nil, status.Errorf(codes.Internal, "close day: %v", err)
	}
	// Settlement polls for this signal; it must be written even if the settle job's call times out.
	go s.signalSettlement(context.WithoutCancel(ctx), date, n)
	// ^BUG: detach
	return &ledgerv1.CloseDayResponse{BusinessDate: date, EntriesClosed: n}, nil
}

func (s *LedgerServer) signalSettlement(ctx context.Context, date string, entries int64) {
	if _, err := s.db.ExecContext(ctx,
		`INSERT INTO settlement_signals (business_date, entries, ready_at) VALUES ($1, $2, now())`, date, entries); err != nil {
		log.Printf("settlement signal for %s: %v", date, err)
	}
}

// ListEntries streams the entries of an account for a business date.
func (s *LedgerServer) ListEntries(req *ledgerv1.ListEntriesRequest, stream grpc.ServerStreamingServer[ledgerv1.Entry]) error {
	if req.GetBusinessDate() == "" {
		return status.Error(codes.InvalidArgument, "business_date is required")
	}
	err := s.repo.Entries(s.runCtx, req.GetAccountId(), req.GetBusinessDate(), func(e ledger.Entry) error { // BUG: ctxflow
		return stream.Send(entryProto(e))
	})
	if err != nil {
		return status.Errorf(codes.Internal, "entries: %v", err)
	}
	return nil
}

// ImportEntries imports entries from the bank file uploader.
func (s *LedgerServer) ImportEntries(stream grpc.ClientStreamingServer[ledgerv1.Entry, ledgerv1.ImportEntriesResponse]) error {
	ctx := stream.Context()
	var imported, skipped int64
	batch := make([]ledger.Entry, 0, importBatch)
	flush := func() error {
		bctx, cancel := context.WithTimeout(context.Background(), 10*time.Second) // BUG: ctxbackground
		defer cancel()
		for _, e := range batch {
			ok, err := s.repo.ImportEntry(bctx, e)
			if err != nil {
				return err
			}
			if ok {
				imported++
			} else {
				skipped++
			}
		}
		batch = batch[:0]
		return nil
	}
	for {
		e, err := stream.Recv()
		if err == io.EOF {
			break
		}
		if err != nil {
			return err
		}
		batch = append(batch, entryFromProto(e))
		if len(batch) == importBatch {
			if err := flush(); err != nil {
				return status.Errorf(codes.Internal, "import: %v", err)
			}
		}
	}
	if err := flush(); err != nil {
		return status.Errorf(codes.Internal, "import: %v", err)
	}
	summary := outbox.NewEvent(ledger.NewID("evt"), "ledger.entries_imported", "", map[string]int64{"imported": imported, "skipped": skipped})
	sctx, cancel := context.WithDeadline(context.WithoutCancel(ctx), time.Now().Add(5*time.Second))
	// ^BUG: detach
	defer cancel()
	if err := s.outbox.Append(sctx, summary); err != nil {
		log.Printf("import summary event: %v", err)
	}
	return stream.SendAndClose(&ledgerv1.ImportEntriesResponse{Imported: imported, Skipped: skipped})
}

const balanceQuery = `SELECT account_id, currency, available_minor, pending_minor, as_of FROM balances WHERE account_id = $1`

// SyncBalances answers a stream of account ids with their balances.
func (s *LedgerServer) SyncBalances(stream grpc.BidiStreamingServer[ledgerv1.SyncBalancesRequest, ledgerv1.Balance]) error {
	ctx := stream.Context()
	stmt, err := s.db.PrepareContext(ctx, balanceQuery) // OK
	if err != nil {
		return status.Errorf(codes.Internal, "prepare: %v", err)
	}
	defer stmt.Close()

	g, gctx := errgroup.WithContext(context.Background()) // BUG: ctxbackground
	ids := make(chan string, 16)
	g.Go(func() error {
		defer close(ids)
		for {
			in, err := stream.Recv()
			if err == io.EOF {
				return nil
			}
			if err != nil {
				return err
			}
			select {
			case ids <- in.GetAccountId():
			case <-gctx.Done():
				return gctx.Err()
			}
		}
	})
	g.Go(func() error {
		for id := range ids {
			var b ledger.Balance
			err := stmt.QueryRow(id).Scan(&b.AccountID, &b.Currency, &b.AvailableMinor, &b.PendingMinor, &b.AsOf) // BUG: ctxless
			if errors.Is(err, sql.ErrNoRows) {
				continue
			}
			if err != nil {
				return err
			}
			if err := stream.Send(balanceProto(&b)); err != nil {
				return err
			}
		}
		return nil
	})
	return g.Wait()
}
