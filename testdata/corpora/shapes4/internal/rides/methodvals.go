package rides

import (
	"context"
	"fmt"

	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	bookingv1 "example.test/shapes4/gen/booking/v1"
	paymentv1 "example.test/shapes4/gen/payment/v1"
)

// ConfirmBooking captures the fare of a held booking and confirms it.
func (s *Server) ConfirmBooking(ctx context.Context, req *bookingv1.BookingRequest) (*bookingv1.Booking, error) {
	r, err := s.st.Load(ctx, req.GetBookingId())
	if err != nil {
		return nil, err
	}
	capture := s.pay.Capture
	res, err := capture(ctx, &paymentv1.PaymentRequest{BookingId: r.ID, AmountCents: r.FareCents}) // OK: method value of the generated client, called with the request ctx
	if err != nil {
		return nil, err
	}
	if err := s.st.SetState(ctx, r.ID, "confirmed"); err != nil {
		return nil, err
	}
	if err := s.onConfirm(ctx, r.ID); err != nil { // OK: the field only ever holds publishConfirm, which appends with its ctx
		return nil, err
	}
	r.State = res.GetState()
	return toProto(r), nil
}

// CancelBooking cancels a booking and tells the rider.
func (s *Server) CancelBooking(ctx context.Context, req *bookingv1.BookingRequest) (*bookingv1.Booking, error) {
	id := req.GetBookingId()
	if err := s.st.SetState(ctx, id, "cancelled"); err != nil {
		return nil, err
	}
	if err := s.onCancel(ctx, id); err != nil { // BUG: ctxbackground
		return nil, err
	}
	return &bookingv1.Booking{Id: id, State: "cancelled"}, nil
}

func (s *Server) publishConfirm(ctx context.Context, id string) error {
	return s.st.Append(ctx, "ride.confirmed", id)
}

// publishCancel queues the cancellation notice for the rider.
func (s *Server) publishCancel(_ context.Context, id string) error {
	return s.st.Append(context.Background(), "ride.cancelled", id)
}

// transferSteps moves a booking to another seat or another rider.
var transferSteps = map[string]func(*Server, context.Context, *bookingv1.BookingRequest) error{
	"seat":  (*Server).moveSeat,
	"rider": (*Server).moveRider,
}

// TransferTicket moves a booking to another seat or rider.
func (s *Server) TransferTicket(ctx context.Context, req *bookingv1.BookingRequest) (*bookingv1.Booking, error) {
	kind := "seat"
	if req.GetUserId() != "" {
		kind = "rider"
	}
	step := transferSteps[kind]
	if err := step(s, ctx, req); err != nil { // BUG: ctxbackground
		return nil, fmt.Errorf("transfer %s: %w", kind, err)
	}
	return s.GetBooking(ctx, req)
}

func (s *Server) moveSeat(ctx context.Context, req *bookingv1.BookingRequest) error {
	r, err := s.st.Load(ctx, req.GetBookingId())
	if err != nil {
		return err
	}
	r.SeatID = req.GetSeatId()
	return s.st.Save(ctx, r)
}

// moveRider hands the booking to another rider.
func (s *Server) moveRider(_ context.Context, req *bookingv1.BookingRequest) error {
	bg := context.Background()
	r, err := s.st.Load(bg, req.GetBookingId())
	if err != nil {
		return err
	}
	r.RiderID = req.GetUserId()
	return s.st.Save(bg, r)
}

// checkers validate a request before a booking changes hands; each reads with its ctx.
var checkers = []func(*Server, context.Context, string) error{
	(*Server).checkNotBoarded,
	(*Server).checkPaid,
}

func (s *Server) checkNotBoarded(ctx context.Context, id string) error {
	r, err := s.st.Load(ctx, id)
	if err != nil {
		return err
	}
	if r.State == "boarded" {
		return status.Error(codes.FailedPrecondition, "rider already boarded")
	}
	return nil
}

func (s *Server) checkPaid(ctx context.Context, id string) error {
	r, err := s.st.Load(ctx, id)
	if err != nil {
		return err
	}
	if r.State != "confirmed" {
		return status.Error(codes.FailedPrecondition, "booking not paid")
	}
	return nil
}

// RefundBooking refunds a confirmed booking: the full fare at once, or the part the rider
// asked for once the trip has been re-priced.
func (s *Server) RefundBooking(ctx context.Context, req *bookingv1.BookingRequest) (*bookingv1.Booking, error) {
	for _, check := range checkers {
		if err := check(s, ctx, req.GetBookingId()); err != nil { // OK: every method expression in the table reads with its ctx
			return nil, err
		}
	}
	r, err := s.st.Load(ctx, req.GetBookingId())
	if err != nil {
		return nil, err
	}
	if req.GetCount() > 0 {
		part := r.FareCents * int64(req.GetCount()) / 100
		if err := s.refundLater(r.ID, part)()(); err != nil {
			return nil, err
		}
		return toProto(r), nil
	}
	refund := paymentv1.PaymentServiceClient.Refund
	if _, err := refund(s.pay, ctx, &paymentv1.PaymentRequest{BookingId: r.ID, AmountCents: r.FareCents}); err != nil { // OK: method expression of the generated interface, request ctx
		return nil, err
	}
	return toProto(r), s.st.SetState(ctx, r.ID, "refunded")
}

// refundLater prepares a partial refund: the outer func checks the amount, the inner one
// sends it to the fare provider.
func (s *Server) refundLater(id string, cents int64) func() func() error {
	return func() func() error {
		if cents <= 0 {
			return func() error { return nil }
		}
		req := &paymentv1.PaymentRequest{BookingId: id, AmountCents: cents}
		return func() error {
			_, err := s.pay.Refund(context.Background(), req) // BUG: missingdeadline
			return err
		}
	}
}
