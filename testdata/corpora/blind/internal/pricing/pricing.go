// Package pricing computes order totals.
package pricing

import (
	"context"

	ordersv1 "example.test/blind/gen/ordersv1"
	"example.test/blind/internal/httpx"
)

// Pricer prices order lines.
type Pricer interface {
	Total(ctx context.Context, lines []*ordersv1.OrderLine, currency string) (int64, error)
}

// Catalog looks unit prices up in a table and converts currencies with the
// FX-rates API.
type Catalog struct {
	Prices map[string]int64
	FX     *httpx.Client
}

// Total implements Pricer.
func (c *Catalog) Total(ctx context.Context, lines []*ordersv1.OrderLine, currency string) (int64, error) {
	var cents int64
	for _, l := range lines {
		cents += c.Prices[l.GetSku()] * int64(l.GetQuantity())
	}
	if currency == "" || currency == "USD" {
		return cents, nil
	}
	rate, err := c.FX.Rate(ctx, currency)
	if err != nil {
		return 0, err
	}
	return int64(float64(cents) * rate), nil
}

// Risk combines the fraud score into a hold decision.
type Risk struct {
	FX *httpx.Client
}

// ShouldHold reports whether an order should wait for manual review.
func (r *Risk) ShouldHold(ctx context.Context, customerID string) (bool, error) {
	score, err := r.FX.FraudScore(ctx, customerID)
	if err != nil {
		return false, err
	}
	return score > 0.8, nil
}
