package server

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	"example.test/ledger/gen/ledgerpb"
	"example.test/ledger/internal/events"
	"example.test/ledger/internal/grpcerr"
	"example.test/ledger/internal/obs"
	"example.test/ledger/internal/store"
)

const maxBusyRetries = 5

// PostTransfer moves funds between two accounts.
func (s *Ledger) PostTransfer(ctx context.Context, req *ledgerpb.PostTransferRequest) (*ledgerpb.PostTransferResponse, error) {
	if req.GetIdempotencyKey() == "" || req.GetFromAccount() == "" || req.GetToAccount() == "" {
		return nil, status.Error(codes.InvalidArgument, "idempotency_key, from_account and to_account are required")
	}
	if req.GetAmountMinor() <= 0 {
		return nil, status.Error(codes.InvalidArgument, "amount_minor must be positive")
	}
	defer obs.Since("post_transfer", time.Now())

	dec, err := s.risk.Score(s.baseCtx, req.GetFromAccount(), req.GetToAccount(), req.GetAmountMinor(), req.GetCurrency()) // BUG: ctxflow — B5: the risk score runs on the server's lifetime, not the request's
	if err != nil {
		return nil, grpcerr.From(err)
	}
	if dec.Block {
		return nil, status.Errorf(codes.PermissionDenied, "blocked by risk: %s", dec.Reason)
	}

	holder := obs.RequestID(ctx)
	lock := "acct:" + req.GetFromAccount()
	ok, err := s.store.AcquireLock(ctx, lock, holder, 30*time.Second)
	if err != nil {
		return nil, grpcerr.From(err)
	}
	if !ok {
		return nil, status.Error(codes.Aborted, "account is busy, retry")
	}
	defer func() {
		// The request ctx may already be cancelled; the lock must still be
		// released, so use a fresh, short, bounded ctx.
		rctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
		defer cancel()
		if err := s.store.ReleaseLock(rctx, lock, holder); err != nil {
			obs.L(ctx).Warn("release lock", "lock", lock, "err", err)
		}
	}()

	t := store.Transfer{
		ID:             "tr-" + req.GetIdempotencyKey(),
		IdempotencyKey: req.GetIdempotencyKey(),
		From:           req.GetFromAccount(),
		To:             req.GetToAccount(),
		Amount:         req.GetAmountMinor(),
		Currency:       req.GetCurrency(),
	}
	payload, _ := json.Marshal(map[string]any{"transfer_id": t.ID, "from": t.From, "to": t.To, "amount": t.Amount})

	for attempt := 0; ; attempt++ {
		err = s.store.ApplyTransfer(ctx, t, payload)
		if err == nil || !errors.Is(err, store.ErrBusy) || attempt == maxBusyRetries {
			break
		}
		time.Sleep(time.Duration(attempt+1) * 25 * time.Millisecond) // BUG: ctxless — B4: a retry sleep that never checks ctx
	}
	if err != nil {
		return nil, grpcerr.From(err)
	}

	if err := s.audit.Record(holder, fmt.Sprintf("transfer %s", t.ID)); err != nil { // BUG: ctxbackground — B13: the auditor writes with context.TODO()
		obs.L(ctx).Warn("audit", "err", err)
	}
	s.cache.Invalidate(t.From)
	s.cache.Invalidate(t.To)

	now := time.Now().Unix()
	s.broker.Publish(events.Event{AccountID: t.From, Kind: "debit", Amount: t.Amount, At: now})
	s.broker.Publish(events.Event{AccountID: t.To, Kind: "credit", Amount: t.Amount, At: now})

	// Post-response work: must not be cancelled when the client goes away.
	go s.reportOutcome(context.WithoutCancel(ctx), t.ID, "posted")
	go s.notifyPartner(context.WithoutCancel(ctx), payload)
	// ^BUG: detach — B7: no bound on the partner notification (its client has no timeout either)

	return &ledgerpb.PostTransferResponse{TransferId: t.ID, Status: "posted"}, nil
}

// reportOutcome tells Risk about the transfer. ctx is detached from the
// request; the bound is applied here.
func (s *Ledger) reportOutcome(ctx context.Context, transferID, outcome string) {
	ctx, cancel := context.WithTimeout(ctx, 3*time.Second)
	defer cancel()
	if err := s.risk.Report(ctx, transferID, outcome); err != nil {
		obs.L(ctx).Warn("risk report", "transfer", transferID, "err", err)
	}
}

// notifyPartner pushes the transfer to the partner's webhook immediately;
// the outbox relay is the reliable path, this is the fast path.
func (s *Ledger) notifyPartner(ctx context.Context, payload []byte) {
	if err := s.hook.Send(ctx, "transfer.posted", payload); err != nil {
		obs.L(ctx).Info("fast-path webhook failed; relay will retry", "err", err)
	}
}
