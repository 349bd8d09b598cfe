package booking

import (
	"context"
	"fmt"
	"time"

	bookingv1 "example.test/shapes2/gen/booking/v1"
)

func errTaken(page int) error { return fmt.Errorf("seat taken (page %d)", page) }

// audit writes an audit line with ctx.
func (s *Server) audit(ctx context.Context, line string) {
	_ = s.store.Log(ctx, line)
}

// unlockLater drops the seat lock on a context of its own.
func (s *Server) unlockLater(seat string) {
	_ = s.store.Unlock(context.Background(), seat)
}

// lockAndSave saves the booking under the seat lock; the deferred unlock must run even when
// the request is gone.
func (s *Server) lockAndSave(ctx context.Context, seat string) error {
	defer s.store.Unlock(context.Background(), seat)
	b, err := s.store.Load(ctx, seat)
	if err != nil {
		return err
	}
	return s.store.Save(ctx, b)
}

// CheckIn checks a ticket in under the seat lock.
func (s *Server) CheckIn(ctx context.Context, req *bookingv1.BookingRequest) (*bookingv1.Booking, error) {
	defer s.store.Unlock(context.Background(), req.GetSeatId()) // BUG: ctxbackground
	defer func() {
		cctx, cancel := context.WithTimeout(context.Background(), 2*time.Second) // OK
		defer cancel()
		_ = s.store.Release(cctx, req.GetSeatId()+":checkin-lock")
	}()
	if err := s.lockAndSave(ctx, req.GetSeatId()); err != nil { // OK
		return nil, err
	}
	b, err := s.store.Load(ctx, req.GetBookingId())
	if err != nil {
		return nil, err
	}
	b.State = "checked-in"
	return toProto(b), s.store.Save(ctx, b)
}

// ReleaseHold releases a hold and audits it.
func (s *Server) ReleaseHold(ctx context.Context, req *bookingv1.BookingRequest) (*bookingv1.Booking, error) {
	defer s.audit(context.WithoutCancel(ctx), "release "+req.GetSeatId())
	// ^BUG: detach
	defer func() {
		_ = s.store.Log(context.TODO(), "released "+req.GetSeatId()) // BUG: ctxbackground
	}()
	defer s.unlockLater(req.GetSeatId())    // OK? deferred call of a helper with a root: cleanup ends the chain
	defer s.audit(ctx, "release requested") // OK
	if err := s.store.Release(ctx, req.GetSeatId()); err != nil {
		return nil, err
	}
	return &bookingv1.Booking{SeatId: req.GetSeatId(), State: "released"}, nil
}

// VoidBooking voids the payment and releases the seat.
func (s *Server) VoidBooking(ctx context.Context, req *bookingv1.BookingRequest) (*bookingv1.Booking, error) {
	// The release row must be audited even when the caller has gone; two seconds is plenty.
	actx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 2*time.Second) // OK
	defer cancel()
	defer s.audit(actx, "void "+req.GetBookingId())
	if err := s.voids.Void(ctx, req.GetBookingId()); err != nil { // BUG: ctxbackground
		return nil, err
	}
	return &bookingv1.Booking{Id: req.GetBookingId(), State: "voided"}, nil
}
