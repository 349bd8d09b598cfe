// Package payclient is the hand-written client the operator tools use to talk
// to the payments API.
package payclient

import (
	"context"
	"fmt"
	"io"
	"time"

	paymentsv1 "example.test/payments/gen/payments/v1"
)

// Client wraps the generated PaymentService client.
type Client struct {
	rpc     paymentsv1.PaymentServiceClient
	timeout time.Duration
}

// New returns a client. timeout bounds mutating calls.
func New(rpc paymentsv1.PaymentServiceClient, timeout time.Duration) *Client {
	return &Client{rpc: rpc, timeout: timeout}
}

// Get fetches one payment.
func (c *Client) Get(ctx context.Context, id string) (*paymentsv1.Payment, error) {
	p, err := c.rpc.GetPayment(ctx, &paymentsv1.GetPaymentRequest{Id: id}) // OK
	if err != nil {
		return nil, fmt.Errorf("get payment %s: %w", id, err)
	}
	return p, nil
}

// Refund refunds amount of a payment (the whole payment when amount is nil).
func (c *Client) Refund(ctx context.Context, paymentID string, amount *paymentsv1.Money, reason string) (*paymentsv1.Refund, error) {
	ctx, cancel := context.WithTimeout(ctx, c.timeout)
	defer cancel()
	r, err := c.rpc.RefundPayment(ctx, &paymentsv1.RefundPaymentRequest{PaymentId: paymentID, Amount: amount, Reason: reason}) // OK
	if err != nil {
		return nil, fmt.Errorf("refund %s: %w", paymentID, err)
	}
	return r, nil
}

// List returns every payment of a merchant, following page tokens.
func (c *Client) List(ctx context.Context, merchantID string) ([]*paymentsv1.Payment, error) {
	var out []*paymentsv1.Payment
	token := ""
	for {
		resp, err := c.rpc.ListPayments(ctx, &paymentsv1.ListPaymentsRequest{ // OK
			MerchantId: merchantID,
			PageSize:   200,
			PageToken:  token,
		})
		if err != nil {
			return nil, fmt.Errorf("list payments: %w", err)
		}
		out = append(out, resp.GetPayments()...)
		token = resp.GetNextPageToken()
		if token == "" {
			return out, nil
		}
	}
}

// Watch calls fn for every status change of a payment until the stream ends.
func (c *Client) Watch(ctx context.Context, id string, fn func(*paymentsv1.PaymentEvent) error) error {
	stream, err := c.rpc.WatchPayment(ctx, &paymentsv1.WatchPaymentRequest{Id: id}) // OK
	if err != nil {
		return fmt.Errorf("watch %s: %w", id, err)
	}
	for {
		ev, err := stream.Recv()
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return fmt.Errorf("watch %s: %w", id, err)
		}
		if err := fn(ev); err != nil {
			return err
		}
	}
}
