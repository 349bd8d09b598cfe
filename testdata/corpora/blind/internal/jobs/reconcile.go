// Package jobs holds the periodic jobs run by the reconciler.
package jobs

import (
	"context"
	"fmt"
	"log/slog"

	ordersv1 "example.test/blind/gen/ordersv1"
	"example.test/blind/internal/invclient"
)

// Reconciler compares open orders with the inventory service.
type Reconciler struct {
	Inv    *invclient.Client
	Orders ordersv1.OrderServiceClient
	Log    *slog.Logger
}

// Reconcile checks that every sku has stock.
func (r *Reconciler) Reconcile(ctx context.Context, skus []string) error {
	for _, sku := range skus {
		n, err := r.Inv.Available(ctx, sku)
		if err != nil {
			return fmt.Errorf("sku %s: %w", sku, err)
		}
		if n < 0 {
			r.Log.Warn("negative stock", "sku", sku, "n", n)
		}
	}
	return nil
}

// ReconcileBounded is Reconcile with a per-sku deadline.
func (r *Reconciler) ReconcileBounded(ctx context.Context, skus []string) error {
	for _, sku := range skus {
		if _, err := r.Inv.AvailableWithin(ctx, sku, 2e9); err != nil {
			return err
		}
	}
	return nil
}

// Warmup makes sure the inventory service is reachable before the first run.
func (r *Reconciler) Warmup() error {
	return r.Inv.Ping(context.Background()) // OK: a convenience API (no ctx, one RPC with an inline root): reported at its callers (precision issue)
}

// CancelStale cancels one stale order.
func (r *Reconciler) CancelStale(ctx context.Context, id string) error {
	_, err := r.Orders.CancelOrder(ctx, &ordersv1.CancelOrderRequest{Id: id, Reason: "stale"})
	return err
}
