package booking

import (
	"context"

	bookingv1 "example.test/shapes2/gen/booking/v1"
	paymentv1 "example.test/shapes2/gen/payment/v1"
	"example.test/shapes2/internal/store"
)

// ConfirmBooking captures the payment and saves the booking through method values.
func (s *Server) ConfirmBooking(ctx context.Context, req *bookingv1.BookingRequest) (*bookingv1.Booking, error) {
	load := s.store.Load
	b, err := load(ctx, req.GetBookingId()) // OK
	if err != nil {
		return nil, err
	}
	authorize := s.pay.Authorize
	if _, err := authorize(ctx, &paymentv1.PaymentRequest{BookingId: b.ID}); err != nil { // OK
		return nil, err
	}
	capture := s.pay.Capture
	if _, err := capture(context.Background(), &paymentv1.PaymentRequest{BookingId: b.ID, AmountCents: b.PriceCents}); err != nil { // BUG: ctxbackground
		return nil, err
	}
	b.State = "confirmed"
	save := s.store.Save
	if err := save(ctx, b); err != nil { // OK
		return nil, err
	}
	return toProto(b), nil
}

// notifyDetached tells the seat map about a change on a context of its own.
func (s *Server) notifyDetached(ctx context.Context, eventID string) error {
	_ = ctx
	return s.store.Publish(context.Background(), eventID, "changed")
}

// notify tells the seat map about a change.
func (s *Server) notify(ctx context.Context, eventID string) error {
	return s.store.Publish(ctx, eventID, "changed")
}

// CancelBooking releases the seat and refunds through method expressions.
func (s *Server) CancelBooking(ctx context.Context, req *bookingv1.BookingRequest) (*bookingv1.Booking, error) {
	release := (*store.Store).Release
	if err := release(s.store, ctx, req.GetSeatId()); err != nil { // OK
		return nil, err
	}
	refund := paymentv1.PaymentServiceClient.Refund
	if _, err := refund(s.pay, ctx, &paymentv1.PaymentRequest{BookingId: req.GetBookingId()}); err != nil { // OK
		return nil, err
	}
	tell := s.notify
	if err := tell(ctx, req.GetEventId()); err != nil { // OK
		return nil, err
	}
	tellAll := s.notifyDetached
	if err := tellAll(ctx, "all"); err != nil { // BUG: ctxbackground
		return nil, err
	}
	return &bookingv1.Booking{Id: req.GetBookingId(), State: "cancelled"}, nil
}

// reassign moves a booking to another user, on a context of its own.
func (s *Server) reassign(ctx context.Context, id, user string) error {
	b, err := s.store.Load(context.Background(), id)
	if err != nil {
		return err
	}
	b.UserID = user
	return s.store.Save(ctx, b)
}

// reserve holds the seat for user.
func (s *Server) reserve(ctx context.Context, seat, user string) error {
	return s.store.Reserve(ctx, seat, user)
}

// TransferTicket reassigns through a method expression and a table of method values.
func (s *Server) TransferTicket(ctx context.Context, req *bookingv1.BookingRequest) (*bookingv1.Booking, error) {
	steps := map[string]func(*Server, context.Context, string, string) error{
		"reserve":  (*Server).reserve,
		"reassign": (*Server).reassign,
	}
	if err := steps["reassign"](s, ctx, req.GetBookingId(), req.GetUserId()); err != nil { // BUG: ctxbackground
		return nil, err
	}
	move := (*Server).reserve
	if err := move(s, ctx, req.GetSeatId(), req.GetUserId()); err != nil { // OK
		return nil, err
	}
	return &bookingv1.Booking{Id: req.GetBookingId(), UserId: req.GetUserId()}, nil
}
