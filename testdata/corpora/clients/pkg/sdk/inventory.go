package sdk

import (
	"context"
	"fmt"
	"time"

	inventoryv1 "example.test/clients/gen/inventory/v1"
)

// GetItem returns the stock record of a SKU.
func (c *Client) GetItem(ctx context.Context, sku string) (*inventoryv1.Item, error) {
	item, err := c.inventory.GetItem(ctx, &inventoryv1.GetItemRequest{Sku: sku}) // OK
	if err != nil {
		return nil, fmt.Errorf("get item %s: %w", sku, err)
	}
	return item, nil
}

// BatchGetItems looks up several SKUs, each call bounded by the client
// default.
func (c *Client) BatchGetItems(ctx context.Context, skus []string) (map[string]*inventoryv1.Item, error) {
	out := make(map[string]*inventoryv1.Item, len(skus))
	for _, sku := range skus {
		item, err := callWithTimeout(ctx, c.defaultTimeout, c.inventory.GetItem, &inventoryv1.GetItemRequest{Sku: sku}) // OK
		if err != nil {
			return out, fmt.Errorf("get item %s: %w", sku, err)
		}
		out[sku] = item
	}
	return out, nil
}

// ReserveStock reserves quantity units of sku for an order.
func (c *Client) ReserveStock(ctx context.Context, sku string, quantity int64, orderID string) (*inventoryv1.Reservation, error) {
	var cancel context.CancelFunc = func() {}
	if _, ok := ctx.Deadline(); !ok {
		ctx, cancel = context.WithTimeout(ctx, c.defaultTimeout)
	}
	defer cancel()
	r, err := c.inventory.ReserveStock(ctx, &inventoryv1.ReserveStockRequest{Sku: sku, Quantity: quantity, OrderId: orderID}) // OK
	if err != nil {
		return nil, fmt.Errorf("reserve %d x %s: %w", quantity, sku, err)
	}
	return r, nil
}

// ReleaseStock releases a reservation.
func (c *Client) ReleaseStock(ctx context.Context, reservationID string) (*inventoryv1.Reservation, error) {
	r, err := c.inventory.ReleaseStock(ctx, &inventoryv1.ReleaseStockRequest{ReservationId: reservationID}) // OK
	if err != nil {
		return nil, fmt.Errorf("release %s: %w", reservationID, err)
	}
	return r, nil
}

// AdjustCount changes the on-hand count of a SKU, retrying transient
// failures.
func (c *Client) AdjustCount(ctx context.Context, sku string, delta int64, reason string) (*inventoryv1.Item, error) {
	req := &inventoryv1.AdjustCountRequest{Sku: sku, Delta: delta, Reason: reason}
	var item *inventoryv1.Item
	err := retry(ctx, 4, 250*time.Millisecond, func() error {
		var err error
		item, err = c.inventory.AdjustCount(ctx, req) // OK
		return err
	})
	if err != nil {
		return nil, fmt.Errorf("adjust %s by %d: %w", sku, delta, err)
	}
	return item, nil
}
