package rides

import (
	"context"
	"time"

	bookingv1 "example.test/shapes4/gen/booking/v1"
)

// CheckIn marks a rider boarded. It holds the ride's advisory lock while it checks the seat.
func (s *Server) CheckIn(ctx context.Context, req *bookingv1.BookingRequest) (*bookingv1.Booking, error) {
	id := req.GetBookingId()
	if err := s.st.Lock(ctx, id); err != nil {
		return nil, err
	}
	defer func() {
		_ = s.st.Unlock(context.Background(), id) // BUG: ctxbackground
	}()
	r, err := s.st.Load(ctx, id)
	if err != nil {
		return nil, err
	}
	defer s.audit(context.WithoutCancel(ctx), "ride.checkin", id)
	// ^BUG: detach
	if r.SeatID != req.GetSeatId() {
		r.SeatID = req.GetSeatId()
	}
	r.State = "boarded"
	return toProto(r), s.st.Save(ctx, r)
}

func (s *Server) audit(ctx context.Context, kind, id string) {
	if err := s.st.Append(ctx, kind, id); err != nil {
		s.log.WarnContext(ctx, "audit", "kind", kind, "id", id, "err", err)
	}
}

// ReleaseHold gives a held seat back.
func (s *Server) ReleaseHold(ctx context.Context, req *bookingv1.BookingRequest) (*bookingv1.Booking, error) {
	id := req.GetBookingId()
	if err := s.st.Lock(ctx, id); err != nil {
		return nil, err
	}
	defer func() {
		uctx, cancel := context.WithTimeout(context.Background(), 2*time.Second) // OK: a bounded fresh ctx in the handler's deferred function (cleanup)
		defer cancel()
		_ = s.st.Unlock(uctx, id)
	}()
	defer s.forgetCached(id) // OK: a deferred call ends the chain (cleanup)
	if err := s.st.SetState(ctx, id, "released"); err != nil {
		return nil, err
	}
	return &bookingv1.Booking{Id: id, State: "released"}, nil
}

// forgetCached drops the cached ride and its outbox marker.
func (s *Server) forgetCached(id string) {
	s.rides.Forget(id)
	_ = s.st.Append(context.Background(), "ride.cache.evicted", id)
}
