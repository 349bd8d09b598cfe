// Package ops holds multi-step account and stock operations shared by the
// admin CLI and the cron jobs.
package ops

import (
	"context"
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
	"time"

	"example.test/clients/pkg/sdk"
)

// SuspendResult reports what SuspendAccount did.
type SuspendResult struct {
	AccountID string
	Released  []string
	Failed    map[string]error
}

// SuspendAccount suspends the account in billing and releases every stock
// reservation it still holds, so the stock goes back on sale.
func SuspendAccount(ctx context.Context, c *sdk.Client, accountID, reason string) (*SuspendResult, error) {
	acct, err := c.SuspendAccount(ctx, accountID, reason)
	if err != nil {
		return nil, err
	}
	res := &SuspendResult{AccountID: accountID, Failed: map[string]error{}}
	for _, rid := range acct.GetOpenReservationIds() {
		if _, err := c.ReleaseStock(ctx, rid); err != nil {
			res.Failed[rid] = err
			continue
		}
		res.Released = append(res.Released, rid)
	}
	if len(res.Failed) > 0 {
		return res, fmt.Errorf("suspend %s: %d of %d reservations not released", accountID, len(res.Failed), len(acct.GetOpenReservationIds()))
	}
	return res, nil
}

// Refund refunds a charge. Refunds are slow on the billing side; give them
// their own budget rather than the caller's.
func Refund(ctx context.Context, c *sdk.Client, chargeID string, amountCents int64, reason string) error {
	ctx, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	_, err := c.Refund(ctx, chargeID, amountCents, reason) // OK
	return err
}

// RestockFromCSV applies a "sku,delta,reason" file of count corrections and
// returns how many rows were applied.
func RestockFromCSV(ctx context.Context, c *sdk.Client, r io.Reader) (int, error) {
	cr := csv.NewReader(r)
	cr.FieldsPerRecord = 3
	cr.Comment = '#'
	applied := 0
	for line := 1; ; line++ {
		rec, err := cr.Read()
		if errors.Is(err, io.EOF) {
			return applied, nil
		}
		if err != nil {
			return applied, fmt.Errorf("restock: line %d: %w", line, err)
		}
		delta, err := strconv.ParseInt(strings.TrimSpace(rec[1]), 10, 64)
		if err != nil {
			return applied, fmt.Errorf("restock: line %d: bad delta %q", line, rec[1])
		}
		if _, err := c.AdjustCount(ctx, strings.TrimSpace(rec[0]), delta, strings.TrimSpace(rec[2])); err != nil {
			return applied, fmt.Errorf("restock: line %d: %w", line, err)
		}
		applied++
	}
}
