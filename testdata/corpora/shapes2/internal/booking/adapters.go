package booking

import (
	"context"
	"time"

	bookingv1 "example.test/shapes2/gen/booking/v1"
	paymentv1 "example.test/shapes2/gen/payment/v1"
)

// charger is the part of the payment provider the service needs.
type charger interface {
	Charge(ctx context.Context, bookingID string, cents int64) error
}

// refunder refunds bookings.
type refunder interface {
	Refund(ctx context.Context, bookingID string) error
}

// voider voids authorizations.
type voider interface {
	Void(ctx context.Context, bookingID string) error
}

type payAdapter struct {
	c paymentv1.PaymentServiceClient
}

func (a payAdapter) Charge(ctx context.Context, bookingID string, cents int64) error {
	_, err := a.c.Authorize(ctx, &paymentv1.PaymentRequest{BookingId: bookingID, AmountCents: cents})
	return err
}

// dryRunCharger is used in staging: it authorizes on a context of its own.
type dryRunCharger struct {
	c paymentv1.PaymentServiceClient
}

func (d dryRunCharger) Charge(ctx context.Context, bookingID string, cents int64) error {
	tctx, cancel := context.WithTimeout(context.Background(), time.Second)
	defer cancel()
	_, err := d.c.Authorize(tctx, &paymentv1.PaymentRequest{BookingId: bookingID, AmountCents: 0})
	return err
}

type refundAdapter struct {
	c paymentv1.PaymentServiceClient
}

func (a refundAdapter) Refund(ctx context.Context, bookingID string) error {
	_, err := a.c.Refund(context.Background(), &paymentv1.PaymentRequest{BookingId: bookingID}) // BUG: missingdeadline
	return err
}

type voidAdapter struct {
	c paymentv1.PaymentServiceClient
}

func (a *voidAdapter) Void(ctx context.Context, bookingID string) error {
	vctx, cancel := context.WithTimeout(context.Background(), 3*time.Second)
	defer cancel()
	_, err := a.c.Void(vctx, &paymentv1.PaymentRequest{BookingId: bookingID})
	return err
}

// staging picks the dry-run charger.
func staging(s *Server) { s.charges = dryRunCharger{c: s.pay} }

var _ = staging

// RefundBooking charges the fee and refunds the rest through the adapters.
func (s *Server) RefundBooking(ctx context.Context, req *bookingv1.BookingRequest) (*bookingv1.Booking, error) {
	if err := s.charges.Charge(ctx, req.GetBookingId(), 250); err != nil { // OK
		return nil, err
	}
	if err := s.refunds.Refund(ctx, req.GetBookingId()); err != nil { // OK? the adapter's root is missingdeadline's, at its RPC
		return nil, err
	}
	return &bookingv1.Booking{Id: req.GetBookingId(), State: "refunded"}, nil
}
