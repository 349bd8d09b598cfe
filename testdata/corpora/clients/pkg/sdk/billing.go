package sdk

import (
	"context"
	"errors"
	"fmt"
	"io"
	"time"

	"google.golang.org/protobuf/types/known/timestamppb"

	billingv1 "example.test/clients/gen/billing/v1"
)

// GetInvoice fetches one invoice.
func (c *Client) GetInvoice(ctx context.Context, invoiceID string) (*billingv1.Invoice, error) {
	inv, err := c.billing.GetInvoice(ctx, &billingv1.GetInvoiceRequest{InvoiceId: invoiceID}) // OK
	if err != nil {
		return nil, fmt.Errorf("get invoice %s: %w", invoiceID, err)
	}
	return inv, nil
}

// ListInvoices streams the invoices of an account to fn.
func (c *Client) ListInvoices(ctx context.Context, accountID string, since time.Time, fn func(*billingv1.Invoice) error) error {
	req := &billingv1.ListInvoicesRequest{AccountId: accountID}
	if !since.IsZero() {
		req.Since = timestamppb.New(since)
	}
	stream, err := c.billing.ListInvoices(ctx, req) // OK
	if err != nil {
		return fmt.Errorf("list invoices of %s: %w", accountID, err)
	}
	for {
		inv, err := stream.Recv()
		if errors.Is(err, io.EOF) {
			return nil
		}
		if err != nil {
			return fmt.Errorf("list invoices of %s: %w", accountID, err)
		}
		if err := fn(inv); err != nil {
			return err
		}
	}
}

// OverduePage is one page of ListOverdue.
type OverduePage struct {
	Invoices  []*billingv1.Invoice
	NextToken string
}

// ListOverdue returns the invoices due before the cutoff, one page at a time.
func (c *Client) ListOverdue(ctx context.Context, dueBefore time.Time, pageToken string) (*OverduePage, error) {
	resp, err := c.billing.ListOverdue(ctx, &billingv1.ListOverdueRequest{
		DueBefore: timestamppb.New(dueBefore),
		PageToken: pageToken,
		PageSize:  200,
	})
	if err != nil {
		return nil, fmt.Errorf("list overdue: %w", err)
	}
	return &OverduePage{Invoices: resp.GetInvoices(), NextToken: resp.GetNextPageToken()}, nil
}

// Charge charges an account. Charges are never left without a deadline: when
// the caller did not set one, the client default applies.
func (c *Client) Charge(ctx context.Context, accountID string, amountCents int64, idempotencyKey string) (*billingv1.Charge, error) {
	if _, ok := ctx.Deadline(); !ok {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, c.defaultTimeout)
		defer cancel()
	}
	ch, err := c.billing.ChargeAccount(ctx, &billingv1.ChargeAccountRequest{ // OK
		AccountId:      accountID,
		AmountCents:    amountCents,
		IdempotencyKey: idempotencyKey,
	})
	if err != nil {
		return nil, fmt.Errorf("charge %s: %w", accountID, err)
	}
	return ch, nil
}

// Refund refunds part or all of a charge.
func (c *Client) Refund(ctx context.Context, chargeID string, amountCents int64, reason string) (*billingv1.Charge, error) {
	ch, err := c.billing.RefundCharge(ctx, &billingv1.RefundChargeRequest{
		ChargeId:    chargeID,
		AmountCents: amountCents,
		Reason:      reason,
	})
	if err != nil {
		return nil, fmt.Errorf("refund %s: %w", chargeID, err)
	}
	return ch, nil
}

// SuspendAccount suspends an account and returns its open reservations.
func (c *Client) SuspendAccount(ctx context.Context, accountID, reason string) (*billingv1.Account, error) {
	acct, err := c.billing.SuspendAccount(ctx, &billingv1.SuspendAccountRequest{AccountId: accountID, Reason: reason})
	if err != nil {
		return nil, fmt.Errorf("suspend %s: %w", accountID, err)
	}
	return acct, nil
}

// FlushUsage reports the usage accumulated by this process. It is meant to
// be called once, on the way out of a tool.
func (c *Client) FlushUsage(units int64) error {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second) // OK
	defer cancel()
	_, err := c.billing.ReportUsage(ctx, &billingv1.ReportUsageRequest{Source: c.source, Units: units})
	if err != nil {
		return fmt.Errorf("flush usage: %w", err)
	}
	return nil
}
