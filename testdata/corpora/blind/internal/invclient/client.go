// Package invclient wraps the inventory service's gRPC client with retries
// and the conversions the order service needs.
package invclient

import (
	"context"
	"errors"
	"time"

	inventoryv1 "example.test/blind/gen/inventoryv1"
	ordersv1 "example.test/blind/gen/ordersv1"
	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
)

// Client reserves stock for orders.
type Client struct {
	inv      inventoryv1.InventoryServiceClient
	attempts int
}

// New wraps conn.
func New(conn grpc.ClientConnInterface) *Client {
	return &Client{inv: inventoryv1.NewInventoryServiceClient(conn), attempts: 3}
}

// ReserveLines reserves every line of an order, retrying UNAVAILABLE.
func (c *Client) ReserveLines(ctx context.Context, orderID string, lines []*ordersv1.OrderLine) ([]string, error) {
	var ids []string
	for _, l := range lines {
		id, err := c.reserveOne(ctx, &inventoryv1.ReserveRequest{OrderId: orderID, Sku: l.GetSku(), Quantity: l.GetQuantity()})
		if err != nil {
			return ids, err
		}
		ids = append(ids, id)
	}
	return ids, nil
}

func (c *Client) reserveOne(ctx context.Context, req *inventoryv1.ReserveRequest) (string, error) {
	backoff := 50 * time.Millisecond
	for i := 0; ; i++ {
		resp, err := c.inv.Reserve(ctx, req)
		if err == nil {
			return resp.ReservationId, nil
		}
		if status.Code(err) != codes.Unavailable || i+1 >= c.attempts {
			return "", err
		}
		select {
		case <-ctx.Done():
			return "", ctx.Err()
		case <-time.After(backoff):
		}
		backoff *= 2
	}
}

// Available returns the available quantity of sku.
func (c *Client) Available(ctx context.Context, sku string) (int32, error) {
	st, err := c.inv.GetStock(ctx, &inventoryv1.GetStockRequest{Sku: sku})
	if err != nil {
		return 0, err
	}
	return st.Available, nil
}

// AvailableWithin is Available bounded by d.
func (c *Client) AvailableWithin(ctx context.Context, sku string, d time.Duration) (int32, error) {
	ctx, cancel := context.WithTimeout(ctx, d)
	defer cancel()
	return c.Available(ctx, sku)
}

// Ping checks that the inventory service answers.
func (c *Client) Ping(ctx context.Context) error {
	_, err := c.inv.GetStock(ctx, &inventoryv1.GetStockRequest{Sku: "__ping__"})
	if status.Code(err) == codes.NotFound {
		return nil
	}
	return err
}

// Watch streams stock changes for skus until ctx ends.
func (c *Client) Watch(ctx context.Context, skus []string, fn func(*inventoryv1.Stock)) error {
	stream, err := c.inv.WatchStock(ctx, &inventoryv1.WatchStockRequest{Skus: skus})
	if err != nil {
		return err
	}
	for {
		st, err := stream.Recv()
		if err != nil {
			if errors.Is(err, context.Canceled) {
				return nil
			}
			return err
		}
		fn(st)
	}
}
