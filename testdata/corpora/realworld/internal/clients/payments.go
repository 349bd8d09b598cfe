package clients

import (
	"context"
	"fmt"
	"time"

	"go.opentelemetry.io/otel"
	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/trace"
	"go.uber.org/zap"
	"google.golang.org/grpc"
	"google.golang.org/grpc/metadata"

	paymentsv1 "example.test/realworld/gen/payments/v1"
)

var tracer = otel.Tracer("example.test/realworld/internal/clients")

// CaptureTimeout bounds a capture call; the payments team asks for at most 4s.
const CaptureTimeout = 4 * time.Second

// Payments is the orders-side view of the payments service.
type Payments struct {
	c   paymentsv1.PaymentsServiceClient
	log *zap.Logger
}

// NewPayments returns a payments client on conn.
func NewPayments(conn grpc.ClientConnInterface, log *zap.Logger) *Payments {
	return &Payments{c: paymentsv1.NewPaymentsServiceClient(conn), log: log.Named("payments")}
}

func withIdempotencyKey(ctx context.Context, key string) context.Context {
	if key == "" {
		return ctx
	}
	return metadata.AppendToOutgoingContext(ctx, "idempotency-key", key)
}

// Authorize places a hold of amount on the customer's payment method.
func (p *Payments) Authorize(ctx context.Context, orderID string, amountCents int64, currency, token, idempotencyKey string) (*paymentsv1.Payment, error) {
	ctx, span := tracer.Start(ctx, "payments.Authorize", trace.WithSpanKind(trace.SpanKindClient),
		trace.WithAttributes(attribute.String("order.id", orderID)))
	defer span.End()
	pay, err := p.c.Authorize(withIdempotencyKey(ctx, idempotencyKey), &paymentsv1.AuthorizeRequest{
		OrderId:            orderID,
		AmountCents:        amountCents,
		Currency:           currency,
		PaymentMethodToken: token,
	})
	if err != nil {
		span.RecordError(err)
		return nil, fmt.Errorf("payments: authorize %s: %w", orderID, err)
	}
	return pay, nil
}

// Capture captures an authorized payment.
func (p *Payments) Capture(ctx context.Context, paymentID string, amountCents int64) (*paymentsv1.Payment, error) {
	ctx, span := tracer.Start(ctx, "payments.Capture", trace.WithSpanKind(trace.SpanKindClient))
	defer span.End()
	ctx, cancel := context.WithTimeout(ctx, CaptureTimeout)
	defer cancel()
	pay, err := p.c.Capture(ctx, &paymentsv1.CaptureRequest{PaymentId: paymentID, AmountCents: amountCents}) // OK
	if err != nil {
		span.RecordError(err)
		return nil, fmt.Errorf("payments: capture %s: %w", paymentID, err)
	}
	return pay, nil
}

// Refund refunds amount of a captured payment.
func (p *Payments) Refund(ctx context.Context, paymentID string, amountCents int64, reason string) (*paymentsv1.Payment, error) {
	ctx, span := tracer.Start(ctx, "payments.Refund", trace.WithSpanKind(trace.SpanKindClient))
	defer span.End()
	pay, err := p.c.Refund(ctx, &paymentsv1.RefundRequest{PaymentId: paymentID, AmountCents: amountCents, Reason: reason})
	if err != nil {
		span.RecordError(err)
		return nil, fmt.Errorf("payments: refund %s: %w", paymentID, err)
	}
	return pay, nil
}

// Get returns one payment.
func (p *Payments) Get(ctx context.Context, paymentID string) (*paymentsv1.Payment, error) {
	ctx, span := tracer.Start(ctx, "payments.Get", trace.WithSpanKind(trace.SpanKindClient))
	defer span.End()
	return p.c.GetPayment(ctx, &paymentsv1.GetPaymentRequest{Id: paymentID})
}

// Settlements streams the settlements of day (YYYY-MM-DD) to fn.
func (p *Payments) Settlements(ctx context.Context, day string, fn func(*paymentsv1.Settlement) error) error {
	ctx, span := tracer.Start(ctx, "payments.Settlements", trace.WithSpanKind(trace.SpanKindClient))
	defer span.End()
	stream, err := p.c.ListSettlements(ctx, &paymentsv1.ListSettlementsRequest{Day: day}) // OK
	if err != nil {
		return err
	}
	for {
		s, err := stream.Recv()
		if err != nil {
			return ignoreEOF(err)
		}
		if err := fn(s); err != nil {
			return err
		}
	}
}
