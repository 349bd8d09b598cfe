package rides

import (
	"context"
	"fmt"
	"time"

	bookingv1 "example.test/shapes4/gen/booking/v1"
	paymentv1 "example.test/shapes4/gen/payment/v1"
	"example.test/shapes4/internal/tripstore"
)

// fareGateway is what the booking handlers need from the fare provider.
type fareGateway interface {
	Authorize(ctx context.Context, bookingID string, cents int64) (string, error)
	Void(ctx context.Context, bookingID string) error
}

// payAdapter adapts the generated PaymentService client (downstream) to fareGateway.
type payAdapter struct {
	c paymentv1.PaymentServiceClient
}

func (p payAdapter) Authorize(ctx context.Context, bookingID string, cents int64) (string, error) {
	res, err := p.c.Authorize(ctx, &paymentv1.PaymentRequest{BookingId: bookingID, AmountCents: cents}) // OK: the adapter passes its ctx on
	if err != nil {
		return "", fmt.Errorf("authorize %s: %w", bookingID, err)
	}
	return res.GetId(), nil
}

// Void releases the authorisation of a booking. A void must reach the provider even when
// the rider closed the app, or the money stays blocked on their card.
func (p payAdapter) Void(_ context.Context, bookingID string) error {
	_, err := p.c.Void(context.Background(), &paymentv1.PaymentRequest{BookingId: bookingID}) // BUG: missingdeadline
	return err
}

// HoldSeat holds a seat for a rider and authorises the fare.
func (s *Server) HoldSeat(ctx context.Context, req *bookingv1.BookingRequest) (*bookingv1.Booking, error) {
	r := tripstore.Ride{
		ID:        req.GetEventId() + "/" + req.GetSeatId(),
		TripID:    req.GetEventId(),
		SeatID:    req.GetSeatId(),
		RiderID:   req.GetUserId(),
		State:     "held",
		FareCents: 1250,
	}
	if _, err := s.fares.Authorize(ctx, r.ID, r.FareCents); err != nil { // OK: the only implementation passes its ctx to the RPC
		return nil, err
	}
	if err := s.saveHeld(ctx, r); err != nil { // OK: saveHeld's fresh budget is a bounded rollback after a failure, whose error it returns
		return nil, err
	}
	return toProto(r), nil
}

// saveHeld saves a new hold and its outbox row. When the outbox row fails, the hold is
// deleted again: the caller's ctx may be what ran out, so the rollback has a budget of its own.
func (s *Server) saveHeld(ctx context.Context, r tripstore.Ride) error {
	if err := s.st.Save(ctx, r); err != nil {
		return err
	}
	if err := s.st.Append(ctx, "ride.held", r.ID); err != nil {
		rctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
		defer cancel()
		if rerr := s.st.SetState(rctx, r.ID, "rolled-back"); rerr != nil {
			s.log.Warn("rollback hold", "id", r.ID, "err", rerr)
		}
		return fmt.Errorf("outbox for hold %s: %w", r.ID, err)
	}
	return nil
}

// VoidBooking voids the fare authorisation of a held booking and drops the hold.
func (s *Server) VoidBooking(ctx context.Context, req *bookingv1.BookingRequest) (*bookingv1.Booking, error) {
	id := req.GetBookingId()
	if err := s.fares.Void(ctx, id); err != nil {
		return nil, err
	}
	if err := s.st.SetState(ctx, id, "voided"); err != nil {
		return nil, err
	}
	return &bookingv1.Booking{Id: id, State: "voided"}, nil
}
