// Package server implements the gRPC services and their interceptors.
package server

import (
	"bytes"
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log"
	"log/slog"
	"net"
	"net/http"
	"net/url"
	"os/exec"
	"strconv"
	"time"

	"golang.org/x/sync/errgroup"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	ledgerv1 "example.test/payments/gen/ledger/v1"
	paymentsv1 "example.test/payments/gen/payments/v1"
	riskv1 "example.test/payments/gen/risk/v1"
	"example.test/payments/internal/fraud"
	"example.test/payments/internal/ledger"
	"example.test/payments/internal/outbox"
	"example.test/payments/internal/retry"
)

// MerchantLimits is where the payment API reads per-merchant limits from.
type MerchantLimits interface {
	LoadMerchantLimits(merchantID string) (ledger.Limits, error)
}

// PaymentServer implements paymentsv1.PaymentServiceServer.
type PaymentServer struct {
	paymentsv1.UnimplementedPaymentServiceServer

	store    *ledger.Repo
	limits   MerchantLimits
	db       *sql.DB
	fraud    *fraud.Client
	risk     *fraud.Risk
	ledger   ledgerv1.LedgerServiceClient
	outbox   *outbox.Writer
	acquirer *http.Client
	webhooks *http.Client

	acquirerURL     string
	fxURL           string
	receiptRenderer string
	blockScore      float64
	pollEvery       time.Duration
	readRetry       retry.Policy

	baseCtx        context.Context
	notifyMerchant func(p *ledger.Payment) error
}

// PaymentConfig carries the dependencies of a PaymentServer.
type PaymentConfig struct {
	Store           *ledger.Repo
	DB              *sql.DB
	Fraud           *fraud.Client
	Risk            *fraud.Risk
	Ledger          ledgerv1.LedgerServiceClient
	Outbox          *outbox.Writer
	AcquirerURL     string
	FXURL           string
	ReceiptRenderer string
	BlockScore      float64
	PollEvery       time.Duration
}

// NewPaymentServer builds the payment API. ctx is the server's lifetime.
func NewPaymentServer(ctx context.Context, cfg PaymentConfig) *PaymentServer {
	s := &PaymentServer{
		store:           cfg.Store,
		limits:          cfg.Store,
		db:              cfg.DB,
		fraud:           cfg.Fraud,
		risk:            cfg.Risk,
		ledger:          cfg.Ledger,
		outbox:          cfg.Outbox,
		acquirer:        &http.Client{Timeout: 20 * time.Second},
		webhooks:        &http.Client{Timeout: 10 * time.Second},
		acquirerURL:     cfg.AcquirerURL,
		fxURL:           cfg.FXURL,
		receiptRenderer: cfg.ReceiptRenderer,
		blockScore:      cfg.BlockScore,
		pollEvery:       cfg.PollEvery,
		readRetry:       retry.Default,
		baseCtx:         ctx,
	}
	s.notifyMerchant = s.postWebhook
	return s
}

// CreatePayment authorizes a new card payment.
func (s *PaymentServer) CreatePayment(ctx context.Context, req *paymentsv1.CreatePaymentRequest) (*paymentsv1.Payment, error) {
	amount := req.GetAmount()
	if req.GetMerchantId() == "" || amount.GetMinorUnits() <= 0 || amount.GetCurrency() == "" {
		return nil, status.Error(codes.InvalidArgument, "merchant_id and a positive amount are required")
	}
	limits, err := s.limits.LoadMerchantLimits(req.GetMerchantId()) // BUG: ctxbackground
	if err != nil {
		return nil, status.Errorf(codes.Internal, "load limits: %v", err)
	}
	if limits.Blocked || amount.GetMinorUnits() > limits.MaxAmountMinor {
		return nil, status.Error(codes.FailedPrecondition, "amount exceeds the merchant's limits")
	}
	if raw := req.GetWebhookUrl(); raw != "" {
		u, err := url.Parse(raw)
		if err != nil || u.Scheme != "https" || u.Hostname() == "" {
			return nil, status.Error(codes.InvalidArgument, "webhook_url must be an https URL")
		}
		if _, err := net.LookupHost(u.Hostname()); err != nil { // BUG: ctxless
			return nil, status.Errorf(codes.InvalidArgument, "webhook host %q does not resolve", u.Hostname())
		}
	}
	if err := s.risk.WarmRules(req.GetMerchantId()); err != nil { // OK: the root in WarmRules is reported once, by missingdeadline at internal/fraud/risk.go:71, the RPC it reaches (one root, one rule; precision issue)
		slog.WarnContext(ctx, "risk rules not warmed", "merchant", req.GetMerchantId(), "err", err) // OK
	}

	p := &ledger.Payment{
		ID:              ledger.NewID("pay"),
		MerchantID:      req.GetMerchantId(),
		Currency:        amount.GetCurrency(),
		AmountMinor:     amount.GetMinorUnits(),
		Status:          ledger.StatusAuthorized,
		CardFingerprint: fingerprint(req.GetCardToken()),
		IdempotencyKey:  req.GetIdempotencyKey(),
		WebhookURL:      req.GetWebhookUrl(),
		CreatedAt:       time.Now().UTC(),
	}

	screenCtx := ctx
	if req.GetAsyncScreening() {
		screenCtx = context.Background() // BUG: ctxbackground
	}

	var (
		score    float64
		verdict  *fraud.Verdict
		existing *ledger.Payment
	)
	g, gctx := errgroup.WithContext(ctx) // OK
	g.Go(func() error {
		var err error
		existing, err = s.store.FindByIdempotencyKey(gctx, p.MerchantID, p.IdempotencyKey) // OK
		return err
	})
	g.Go(func() error {
		var err error
		score, _, err = s.risk.Score(gctx, &riskv1.ScoreRequest{ // OK
			PaymentId:       p.ID,
			MerchantId:      p.MerchantID,
			AmountMinor:     p.AmountMinor,
			Currency:        p.Currency,
			CardFingerprint: p.CardFingerprint,
			CustomerIp:      req.GetCustomerIp(),
		})
		return err
	})
	g.Go(func() error {
		v, err := s.fraud.ScreenContext(screenCtx, fraud.ScreenRequest{
			PaymentID:       p.ID,
			MerchantID:      p.MerchantID,
			AmountMinor:     p.AmountMinor,
			Currency:        p.Currency,
			CardFingerprint: p.CardFingerprint,
			CustomerIP:      req.GetCustomerIp(),
		})
		if err != nil {
			// The vendor being down must not block payments; the risk score still applies.
			log.Printf("fraud screening for %s failed: %v", p.ID, err)
			return nil
		}
		verdict = v
		return nil
	})
	if err := g.Wait(); err != nil {
		return nil, status.Errorf(codes.Unavailable, "screening: %v", err)
	}
	if existing != nil {
		return paymentProto(existing), nil
	}
	if score >= s.blockScore || verdict.Rejected() {
		p.Status = ledger.StatusDeclined
	}
	if err := s.store.InsertPayment(ctx, p); err != nil { // OK
		return nil, status.Errorf(codes.Internal, "store payment: %v", err)
	}
	if err := s.outbox.Append(ctx, paymentEvent("payment.created", p)); err != nil { // OK
		return nil, status.Errorf(codes.Internal, "payment event: %v", err)
	}
	return paymentProto(p), nil
}

// GetPayment returns one payment.
func (s *PaymentServer) GetPayment(ctx context.Context, req *paymentsv1.GetPaymentRequest) (*paymentsv1.Payment, error) {
	p, err := retry.Do(ctx, s.readRetry, func(ctx context.Context) (*ledger.Payment, error) { // OK
		return s.store.GetPayment(ctx, req.GetId()) // OK
	})
	if errors.Is(err, ledger.ErrNotFound) {
		return nil, status.Errorf(codes.NotFound, "payment %s not found", req.GetId())
	}
	if err != nil {
		return nil, status.Errorf(codes.Internal, "get payment: %v", err)
	}
	return paymentProto(p), nil
}

// captureOp is the state of one CapturePayment call.
type captureOp struct {
	ctx       context.Context
	paymentID string
	amount    int64
}

// CapturePayment captures an authorized payment and posts it to the ledger.
func (s *PaymentServer) CapturePayment(ctx context.Context, req *paymentsv1.CapturePaymentRequest) (*paymentsv1.Payment, error) {
	op := &captureOp{ctx: ctx, paymentID: req.GetId(), amount: req.GetAmount().GetMinorUnits()}
	p, err := s.store.GetPayment(op.ctx, op.paymentID) // OK
	if errors.Is(err, ledger.ErrNotFound) {
		return nil, status.Errorf(codes.NotFound, "payment %s not found", op.paymentID)
	}
	if err != nil {
		return nil, status.Errorf(codes.Internal, "get payment: %v", err)
	}
	if p.Status != ledger.StatusAuthorized {
		return nil, status.Errorf(codes.FailedPrecondition, "payment %s is %s", p.ID, p.Status)
	}
	if op.amount == 0 {
		op.amount = p.AmountMinor
	}
	if op.amount > p.AmountMinor {
		return nil, status.Error(codes.InvalidArgument, "capture exceeds the authorized amount")
	}

	tr, err := s.ledger.PostTransfer(op.ctx, &ledgerv1.PostTransferRequest{ // OK
		FromAccount: "clearing:" + p.Currency,
		ToAccount:   "merchant:" + p.MerchantID,
		Currency:    p.Currency,
		AmountMinor: op.amount,
		Reference:   p.ID,
	})
	if err != nil {
		return nil, status.Errorf(status.Code(err), "post capture: %v", err)
	}

	tx, err := s.db.BeginTx(ctx, nil) // OK
	if err != nil {
		return nil, status.Errorf(codes.Internal, "begin: %v", err)
	}
	defer tx.Rollback()
	if _, err := tx.Exec(`UPDATE payments SET status = $1, captured_minor = $2 WHERE id = $3`, // BUG: ctxless
		string(ledger.StatusCaptured), op.amount, p.ID); err != nil {
		return nil, status.Errorf(codes.Internal, "update payment: %v", err)
	}
	if _, err := tx.ExecContext(ctx, `INSERT INTO capture_log (payment_id, transfer_id, amount_minor) VALUES ($1, $2, $3)`, // OK
		p.ID, tr.GetId(), op.amount); err != nil {
		return nil, status.Errorf(codes.Internal, "capture log: %v", err)
	}
	if err := tx.Commit(); err != nil {
		return nil, status.Errorf(codes.Internal, "commit: %v", err)
	}
	p.Status = ledger.StatusCaptured
	p.CapturedMinor = op.amount

	// The capture is committed: the merchant's event must be written even if the caller hangs up now.
	ectx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 3*time.Second) // OK
	defer cancel()
	if err := s.outbox.Append(ectx, paymentEvent("payment.captured", p)); err != nil { // OK
		slog.ErrorContext(ctx, "capture event not written", "payment", p.ID, "err", err) // OK
	}
	if p.WebhookURL != "" {
		if err := s.notifyMerchant(p); err != nil { // BUG: ctxbackground
			slog.WarnContext(ctx, "merchant webhook failed", "payment", p.ID, "err", err)
		}
	}
	go func() {
		rctx, cancel := context.WithTimeout(context.Background(), 30*time.Second) // BUG: ctxbackground
		defer cancel()
		if err := s.risk.ReportOutcome(rctx, p.ID, "captured"); err != nil {
			log.Printf("risk outcome for %s: %v", p.ID, err)
		}
	}()
	return paymentProto(p), nil
}

type acquirerRefund struct {
	PaymentID   string `json:"payment_id"`
	AmountMinor int64  `json:"amount_minor"`
	Currency    string `json:"currency"`
}

type acquirerRefundResult struct {
	Reference string `json:"reference"`
	Accepted  bool   `json:"accepted"`
}

// RefundPayment refunds a captured payment through the acquirer.
func (s *PaymentServer) RefundPayment(ctx context.Context, req *paymentsv1.RefundPaymentRequest) (*paymentsv1.Refund, error) {
	defer s.audit(context.Background(), "refund.requested", req.GetPaymentId()) // BUG: ctxbackground

	p, err := s.store.GetPayment(ctx, req.GetPaymentId()) // OK
	if errors.Is(err, ledger.ErrNotFound) {
		return nil, status.Errorf(codes.NotFound, "payment %s not found", req.GetPaymentId())
	}
	if err != nil {
		return nil, status.Errorf(codes.Internal, "get payment: %v", err)
	}
	if p.Status != ledger.StatusCaptured {
		return nil, status.Errorf(codes.FailedPrecondition, "payment %s is %s", p.ID, p.Status)
	}
	amount := req.GetAmount().GetMinorUnits()
	if amount == 0 {
		amount = p.CapturedMinor
	}

	body, err := json.Marshal(acquirerRefund{PaymentID: p.ID, AmountMinor: amount, Currency: p.Currency})
	if err != nil {
		return nil, status.Errorf(codes.Internal, "encode refund: %v", err)
	}
	resp, err := s.acquirer.Post(s.acquirerURL+"/v1/refunds", "application/json", bytes.NewReader(body)) // BUG: ctxless
	if err != nil {
		return nil, status.Errorf(codes.Unavailable, "acquirer: %v", err)
	}
	defer resp.Body.Close()
	var res acquirerRefundResult
	if err := json.NewDecoder(resp.Body).Decode(&res); err != nil || !res.Accepted {
		return nil, status.Errorf(codes.Aborted, "acquirer declined the refund (%s)", resp.Status)
	}

	rf := ledger.Refund{
		ID:          ledger.NewID("rfd"),
		PaymentID:   p.ID,
		Currency:    p.Currency,
		AmountMinor: amount,
		Reason:      req.GetReason(),
		AcquirerRef: res.Reference,
		CreatedAt:   time.Now().UTC(),
	}
	// The acquirer has accepted the refund, so our books must record it even if the caller is gone.
	rctx := context.WithoutCancel(ctx)
	// ^BUG: detach
	if err := s.store.RecordRefund(rctx, rf); err != nil { // OK
		return nil, status.Errorf(codes.Internal, "record refund: %v", err)
	}

	if req.GetReason() == "fraud" {
		ctx := context.Background() // BUG: ctxbackground
		if err := s.store.FlagCard(ctx, p.CardFingerprint); err != nil {
			log.Printf("flag card of %s: %v", p.ID, err)
		}
		if err := s.fraud.ReportChargeback(p.ID, req.GetReason()); err != nil { // BUG: ctxbackground
			log.Printf("chargeback feedback for %s: %v", p.ID, err)
		}
	}
	go func() {
		if err := s.risk.ReportOutcome(s.baseCtx, p.ID, "refunded"); err != nil { // BUG: ctxflow
			log.Printf("risk outcome for %s: %v", p.ID, err)
		}
	}()
	return refundProto(rf), nil
}

// ListPayments pages through a merchant's payments.
func (s *PaymentServer) ListPayments(ctx context.Context, req *paymentsv1.ListPaymentsRequest) (*paymentsv1.ListPaymentsResponse, error) {
	if req.GetMerchantId() == "" {
		return nil, status.Error(codes.InvalidArgument, "merchant_id is required")
	}
	limit := int(req.GetPageSize())
	if limit <= 0 || limit > 500 {
		limit = 100
	}
	payments, next, err := s.store.ListPayments(s.baseCtx, req.GetMerchantId(), req.GetPageToken(), limit) // BUG: ctxflow
	if err != nil {
		return nil, status.Errorf(codes.Internal, "list payments: %v", err)
	}
	out := &paymentsv1.ListPaymentsResponse{NextPageToken: next}
	for _, p := range payments {
		out.Payments = append(out.Payments, paymentProto(p))
	}
	return out, nil
}

// GetReceipt renders a receipt for a payment.
func (s *PaymentServer) GetReceipt(ctx context.Context, req *paymentsv1.GetReceiptRequest) (*paymentsv1.Receipt, error) {
	p, err := retry.Attempts(s.readRetry, 500*time.Millisecond, func(actx context.Context) (*ledger.Payment, error) { // BUG: ctxbackground
		return s.store.GetPayment(actx, req.GetPaymentId())
	})
	if errors.Is(err, ledger.ErrNotFound) {
		return nil, status.Errorf(codes.NotFound, "payment %s not found", req.GetPaymentId())
	}
	if err != nil {
		return nil, status.Errorf(codes.Internal, "get payment: %v", err)
	}

	rate := 1.0
	if p.Currency != "EUR" {
		fxReq, err := http.NewRequest(http.MethodGet, s.fxURL+"?from="+url.QueryEscape(p.Currency)+"&to=EUR", nil) // BUG: ctxless
		if err != nil {
			return nil, status.Errorf(codes.Internal, "fx request: %v", err)
		}
		fxResp, err := s.webhooks.Do(fxReq)
		if err != nil {
			return nil, status.Errorf(codes.Unavailable, "fx rate: %v", err)
		}
		raw, _ := io.ReadAll(io.LimitReader(fxResp.Body, 64))
		fxResp.Body.Close()
		if rate, err = strconv.ParseFloat(string(bytes.TrimSpace(raw)), 64); err != nil {
			return nil, status.Errorf(codes.Unavailable, "fx rate: %v", err)
		}
	}

	data, _ := json.Marshal(map[string]any{
		"payment_id":   p.ID,
		"merchant_id":  p.MerchantID,
		"amount_minor": p.CapturedMinor,
		"currency":     p.Currency,
		"eur_rate":     rate,
		"created_at":   p.CreatedAt,
	})
	var cmd *exec.Cmd
	contentType := "text/html"
	switch req.GetFormat() {
	case "pdf":
		cmd = exec.CommandContext(ctx, s.receiptRenderer, "--format=pdf", "--payment="+p.ID) // OK
		contentType = "application/pdf"
	case "", "html":
		cmd = exec.Command(s.receiptRenderer, "--format=html", "--payment="+p.ID) // BUG: ctxless
	default:
		return nil, status.Errorf(codes.InvalidArgument, "unknown receipt format %q", req.GetFormat())
	}
	cmd.Stdin = bytes.NewReader(data)
	out, err := cmd.Output()
	if err != nil {
		return nil, status.Errorf(codes.Internal, "render receipt: %v", err)
	}
	return &paymentsv1.Receipt{PaymentId: p.ID, ContentType: contentType, Body: out}, nil
}

// WatchPayment streams status changes of one payment until it is final.
func (s *PaymentServer) WatchPayment(req *paymentsv1.WatchPaymentRequest, stream paymentsv1.PaymentService_WatchPaymentServer) error {
	ctx := stream.Context()
	p, err := retry.Do(ctx, s.readRetry, func(context.Context) (*ledger.Payment, error) { // OK
		return s.store.GetPayment(context.TODO(), req.GetId()) // BUG: ctxbackground
	})
	if errors.Is(err, ledger.ErrNotFound) {
		return status.Errorf(codes.NotFound, "payment %s not found", req.GetId())
	}
	if err != nil {
		return status.Errorf(codes.Internal, "get payment: %v", err)
	}
	last := p.Status
	if err := stream.Send(statusEvent(p)); err != nil {
		return err
	}
	for !last.Terminal() {
		time.Sleep(s.pollEvery) // OK: time.Sleep: the poll loop checks ctx.Err() at every turn (ctxless reports a sleep only in a loop that can turn without checking a ctx; precision issue)
		if err := ctx.Err(); err != nil {
			return status.FromContextError(err).Err()
		}
		cur, err := s.store.GetPayment(ctx, req.GetId()) // OK
		if err != nil {
			return status.Errorf(codes.Internal, "get payment: %v", err)
		}
		if cur.Status == last {
			continue
		}
		last = cur.Status
		if err := stream.Send(statusEvent(cur)); err != nil {
			return err
		}
	}
	return nil
}

// StreamAuthorizations authorizes a stream of card payments, answering each in order.
func (s *PaymentServer) StreamAuthorizations(stream paymentsv1.PaymentService_StreamAuthorizationsServer) error {
	ctx := stream.Context()
	for {
		in, err := stream.Recv()
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return err
		}
		go s.recordAttempt(context.Background(), in) // BUG: ctxbackground

		p, err := s.store.GetPayment(ctx, in.GetPaymentId()) // OK
		if err != nil {
			return status.Errorf(codes.Internal, "get payment: %v", err)
		}
		v, err := s.fraud.Screen(fraud.ScreenRequest{ // BUG: ctxless
			PaymentID:       p.ID,
			MerchantID:      p.MerchantID,
			AmountMinor:     in.GetAmount().GetMinorUnits(),
			Currency:        in.GetAmount().GetCurrency(),
			CardFingerprint: fingerprint(in.GetCardToken()),
		})
		if err != nil {
			return status.Errorf(codes.Unavailable, "screening: %v", err)
		}
		resp := &paymentsv1.AuthorizeResponse{PaymentId: p.ID, Approved: !v.Rejected()}
		next := ledger.StatusAuthorized
		if !resp.Approved {
			next = ledger.StatusDeclined
			resp.DeclineCode = "do_not_honor"
		}
		if err := s.store.UpdateStatus(ctx, p.ID, next); err != nil { // OK
			return status.Errorf(codes.Internal, "update payment: %v", err)
		}
		p.Status = next
		ev := paymentEvent("payment.authorization", p)
		dctx := context.WithoutCancel(ctx)
		// ^BUG: detach
		go func() {
			if err := s.outbox.Append(dctx, ev); err != nil {
				log.Printf("authorization event for %s: %v", p.ID, err)
			}
		}()
		if err := stream.Send(resp); err != nil {
			return err
		}
	}
}

func statusEvent(p *ledger.Payment) *paymentsv1.PaymentEvent {
	return &paymentsv1.PaymentEvent{PaymentId: p.ID, Status: statusToProto[p.Status]}
}

func fingerprint(cardToken string) string {
	if len(cardToken) < 8 {
		return cardToken
	}
	return fmt.Sprintf("fp_%x", []byte(cardToken[len(cardToken)-8:]))
}
