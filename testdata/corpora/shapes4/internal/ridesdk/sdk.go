// Package ridesdk is the client library partners use to book shuttle seats.
package ridesdk

import (
	"context"
	"errors"
	"iter"
	"time"

	"google.golang.org/grpc"

	bookingv1 "example.test/shapes4/gen/booking/v1"
)

// Client wraps the generated BookingService client.
type Client struct {
	rides bookingv1.BookingServiceClient
	poll  time.Duration
}

// New returns a client over cc.
func New(cc grpc.ClientConnInterface) *Client {
	return &Client{rides: bookingv1.NewBookingServiceClient(cc), poll: 2 * time.Second}
}

// invoke runs one unary call of the generated client with ctx.
func invoke[Req, Resp any](ctx context.Context, call func(context.Context, Req, ...grpc.CallOption) (Resp, error), req Req) (Resp, error) {
	return call(ctx, req)
}

// Booking reads one booking.
func (c *Client) Booking(ctx context.Context, id string) (*bookingv1.Booking, error) {
	return c.rides.GetBooking(ctx, &bookingv1.BookingRequest{BookingId: id})
}

// Reserve holds a seat for a rider.
func (c *Client) Reserve(ctx context.Context, tripID, seatID, riderID string) (*bookingv1.Booking, error) {
	return invoke(ctx, c.rides.HoldSeat, &bookingv1.BookingRequest{EventId: tripID, SeatId: seatID, UserId: riderID})
}

// Confirm confirms a held booking.
func (c *Client) Confirm(ctx context.Context, id string) error {
	_, err := invoke(ctx, c.rides.ConfirmBooking, &bookingv1.BookingRequest{BookingId: id})
	return err
}

// Cancel cancels a booking.
func (c *Client) Cancel(ctx context.Context, id string) error {
	_, err := c.rides.CancelBooking(ctx, &bookingv1.BookingRequest{BookingId: id})
	return err
}

// Pending yields the held bookings of a trip, a page at a time, each page fetched with ctx.
func (c *Client) Pending(ctx context.Context, tripID string) iter.Seq[*bookingv1.Booking] {
	return func(yield func(*bookingv1.Booking) bool) {
		after := ""
		for {
			page, err := c.rides.ListBookings(ctx, &bookingv1.BookingRequest{EventId: tripID, BookingId: after, Count: 100})
			if err != nil || len(page.GetBookings()) == 0 {
				return
			}
			for _, b := range page.GetBookings() {
				if b.GetState() == "held" && !yield(b) {
					return
				}
				after = b.GetId()
			}
		}
	}
}

// Ping checks that the booking service answers.
func (c *Client) Ping() error {
	_, err := c.rides.CountAvailable(context.Background(), &bookingv1.BookingRequest{}) // OK: a convenience API, reported at its callers
	return err
}

// Healthy reports whether the booking service answers.
func (c *Client) Healthy() bool {
	return c.probe(context.Background()) == nil // OK: a convenience API over an unexported helper: neither it nor its callers are reported
}

func (c *Client) probe(ctx context.Context) error {
	_, err := c.rides.CountAvailable(ctx, &bookingv1.BookingRequest{Count: 1})
	return err
}

// WaitConfirmed polls a booking until the payment provider confirmed it.
func (c *Client) WaitConfirmed(id string) error {
	for {
		b, err := c.rides.GetBooking(context.Background(), &bookingv1.BookingRequest{BookingId: id}) // OK? a loop calling again and again is "a job deciding its own deadline", not a convenience API
		if err != nil {
			return err
		}
		switch b.GetState() {
		case "confirmed":
			return nil
		case "cancelled", "expired":
			return errors.New("ridesdk: booking " + id + " ended " + b.GetState())
		}
		time.Sleep(c.poll)
	}
}
