// Package shippingclient is the typed client other parts of the monolith use to reach the
// shipping service (which runs as its own deployment in production).
package shippingclient

import (
	"context"
	"time"

	shippingv1 "example.test/monolith/gen/shipping/v1"
	"example.test/monolith/internal/platform/grpcx"
	"google.golang.org/grpc"
)

// Client wraps the generated client.
type Client struct {
	conn    *grpc.ClientConn
	api     shippingv1.ShippingServiceClient
	timeout time.Duration
}

// Dial connects to the shipping service.
func Dial(target, caller string, timeout time.Duration) (*Client, error) {
	conn, err := grpcx.Dial(target, caller)
	if err != nil {
		return nil, err
	}
	return New(conn, timeout), nil
}

// New wraps an existing connection.
func New(conn *grpc.ClientConn, timeout time.Duration) *Client {
	return &Client{conn: conn, api: shippingv1.NewShippingServiceClient(conn), timeout: timeout}
}

// Quote asks for the cheapest quote.
func (c *Client) Quote(ctx context.Context, from, to string, grams int32) (*shippingv1.Quote, error) {
	return c.api.QuoteShipment(ctx, &shippingv1.QuoteShipmentRequest{FromPostcode: from, ToPostcode: to, WeightGrams: grams})
}

// Get returns one shipment.
func (c *Client) Get(ctx context.Context, id string) (*shippingv1.Shipment, error) {
	return c.api.GetShipment(ctx, &shippingv1.GetShipmentRequest{Id: id})
}

// Cancel cancels a shipment.
func (c *Client) Cancel(ctx context.Context, id string) (*shippingv1.Shipment, error) {
	return c.api.CancelShipment(ctx, &shippingv1.CancelShipmentRequest{Id: id})
}

// StatusOf returns the status of a shipment, or "unknown" when the shipping service does not
// answer within the client timeout.
func (c *Client) StatusOf(id string) (string, error) {
	ctx, cancel := context.WithTimeout(context.Background(), c.timeout)
	defer cancel()
	sh, err := c.api.GetShipment(ctx, &shippingv1.GetShipmentRequest{Id: id})
	if err != nil {
		return "unknown", err
	}
	return sh.GetStatus(), nil
}

// Track opens the tracking stream.
func (c *Client) Track(ctx context.Context) (grpc.BidiStreamingClient[shippingv1.TrackRequest, shippingv1.TrackEvent], error) {
	return c.api.TrackShipments(ctx)
}

// Close closes the connection.
func (c *Client) Close() error { return c.conn.Close() }
