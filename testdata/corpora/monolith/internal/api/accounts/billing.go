package accounts

import (
	"bytes"
	"context"
	"encoding/csv"
	"fmt"
	"log/slog"
	"strconv"
	"time"

	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	"example.test/acme/fxrates"
	accountsv1 "example.test/monolith/gen/accounts/v1"
	"example.test/monolith/internal/platform/events"
	"example.test/monolith/internal/service/accountsvc"
	"example.test/monolith/pkg/money"
)

type billingHandlers struct {
	billing *accountsvc.Billing
	fx      *fxrates.Client
	events  *events.Publisher
	rootCtx context.Context
	pace    time.Duration
	log     *slog.Logger
}

func (h *billingHandlers) GetBalance(ctx context.Context, req *accountsv1.GetBalanceRequest) (*accountsv1.Balance, error) {
	bal, cur, err := h.billing.Balance(ctx, req.GetAccountId(), "") // BUG: ctxbackground
	if err != nil {
		return nil, toStatus(err)
	}
	if want := req.GetCurrency(); want != "" && want != cur {
		rate, err := h.fx.Rate(ctx, cur, want) // OK
		if err != nil {
			return nil, status.Errorf(codes.Unavailable, "fx rate %s/%s: %v", cur, want, err)
		}
		bal, cur = money.Scale(bal, rate), want
	}
	return &accountsv1.Balance{AccountId: req.GetAccountId(), AmountMinor: bal, Currency: cur}, nil
}

func (h *billingHandlers) ListInvoices(ctx context.Context, req *accountsv1.ListInvoicesRequest) (*accountsv1.ListInvoicesResponse, error) {
	invs, err := h.billing.Invoices(h.rootCtx, req.GetAccountId(), int(req.GetPageSize()), req.GetPageToken()) // BUG: ctxflow
	if err != nil {
		return nil, toStatus(err)
	}
	resp := &accountsv1.ListInvoicesResponse{}
	for _, in := range invs {
		resp.Invoices = append(resp.Invoices, &accountsv1.Invoice{Id: in.ID, AmountMinor: in.AmountMinor, Currency: in.Currency, Status: in.Status})
	}
	if n := len(invs); n > 0 && n == int(req.GetPageSize()) {
		resp.NextPageToken = invs[n-1].ID
	}
	return resp, nil
}

func (h *billingHandlers) ChargeAccount(ctx context.Context, req *accountsv1.ChargeAccountRequest) (*accountsv1.ChargeAccountResponse, error) {
	if req.GetAmountMinor() <= 0 {
		return nil, status.Error(codes.InvalidArgument, "amount must be positive")
	}
	seen, err := h.billing.AlreadyCharged(req.GetIdempotencyKey()) // BUG: ctxbackground
	if err != nil {
		return nil, toStatus(err)
	}
	if seen {
		return nil, status.Error(codes.AlreadyExists, "duplicate charge")
	}
	// Charges in a foreign currency go through the converter main wires in (fxcache, which
	// refreshes rates on a context of its own); whether that is visible from here depends on
	// how far func values passed to a constructor are followed.
	id, bal, err := h.billing.Charge(ctx, req.GetAccountId(), req.GetAmountMinor(), req.GetCurrency(), req.GetIdempotencyKey()) // OK?
	if err != nil {
		return nil, toStatus(err)
	}

	nctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 3*time.Second)
	// ^BUG: detach
	defer cancel()
	if err := h.events.Publish(nctx, "account.charged", req.GetAccountId(), map[string]any{ // OK
		"charge_id": id, "amount_minor": req.GetAmountMinor(), "currency": req.GetCurrency(),
	}); err != nil {
		h.log.WarnContext(ctx, "account.charged not published", "charge", id, "err", err) // OK
	}
	return &accountsv1.ChargeAccountResponse{ChargeId: id, BalanceMinor: bal}, nil
}

type exportJob struct {
	ctx     context.Context
	account string
	year    int
}

func (h *billingHandlers) ExportStatements(req *accountsv1.ExportStatementsRequest, stream accountsv1.AccountService_ExportStatementsServer) error {
	job := exportJob{ctx: stream.Context(), account: req.GetAccountId(), year: int(req.GetYear())}
	if job.year == 0 {
		job.year = time.Now().Year() - 1
	}
	entries, err := h.billing.Statements(job.ctx, job.account, job.year) // OK
	if err != nil {
		return toStatus(err)
	}
	const perChunk = 500
	var seq int32
	for start := 0; start < len(entries); start += perChunk {
		end := min(start+perChunk, len(entries))
		var buf bytes.Buffer
		w := csv.NewWriter(&buf)
		for _, e := range entries[start:end] {
			_ = w.Write([]string{e.ID, e.At.Format(time.RFC3339), strconv.FormatInt(e.AmountMinor, 10), e.Currency, e.Memo})
		}
		w.Flush()
		if err := stream.Send(&accountsv1.StatementChunk{Data: buf.Bytes(), Seq: seq}); err != nil {
			return err
		}
		seq++
		if h.pace > 0 {
			time.Sleep(h.pace) // BUG: ctxless
		}
	}
	if seq == 0 {
		return status.Error(codes.NotFound, fmt.Sprintf("no entries for %d", job.year))
	}
	return nil
}
