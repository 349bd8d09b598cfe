// Package labsdk is the client library the clinics use to place and follow
// lab orders.
package labsdk

import (
	"context"
	"iter"
	"time"

	"google.golang.org/grpc"

	bookingv1 "example.test/shapes5/gen/booking/v1"
)

// Client talks to the lab order service.
type Client struct {
	rpc bookingv1.BookingServiceClient
}

// New returns a Client on cc.
func New(cc grpc.ClientConnInterface) *Client {
	return &Client{rpc: bookingv1.NewBookingServiceClient(cc)}
}

// Order returns one lab order.
func (c *Client) Order(ctx context.Context, id string) (*bookingv1.Booking, error) {
	return c.rpc.GetBooking(ctx, &bookingv1.BookingRequest{BookingId: id})
}

// Confirm accessions an order once its specimens have arrived.
func (c *Client) Confirm(ctx context.Context, id string) error {
	_, err := c.rpc.ConfirmBooking(ctx, &bookingv1.BookingRequest{BookingId: id})
	return err
}

// Cancel cancels an order, waiting at most ten seconds for the lab.
func (c *Client) Cancel(ctx context.Context, id string) error {
	ctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	_, err := c.rpc.CancelBooking(ctx, &bookingv1.BookingRequest{BookingId: id})
	return err
}

// Pending pages through a patient's open orders.
func (c *Client) Pending(ctx context.Context, patient string) iter.Seq2[*bookingv1.Booking, error] {
	return func(yield func(*bookingv1.Booking, error) bool) {
		for page := int32(0); ; page++ {
			list, err := c.rpc.ListBookings(ctx, &bookingv1.BookingRequest{UserId: patient, Count: page})
			if err != nil {
				yield(nil, err)
				return
			}
			if len(list.GetBookings()) == 0 {
				return
			}
			for _, b := range list.GetBookings() {
				if !yield(b, nil) {
					return
				}
			}
		}
	}
}

// Ping checks that the order service answers.
func (c *Client) Ping() error {
	_, err := c.rpc.GetBooking(context.Background(), &bookingv1.BookingRequest{BookingId: "ping"}) // OK: a convenience API, reported at its callers
	return err
}

// Healthy reports whether the order service answers.
func (c *Client) Healthy() bool {
	return c.probe(context.Background()) == nil // OK: a convenience API over an unexported helper: neither it nor its callers are reported
}

func (c *Client) probe(ctx context.Context) error {
	_, err := c.rpc.GetBooking(ctx, &bookingv1.BookingRequest{BookingId: "health"})
	return err
}
