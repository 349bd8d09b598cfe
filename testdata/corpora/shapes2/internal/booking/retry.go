package booking

import (
	"context"
	"time"

	bookingv1 "example.test/shapes2/gen/booking/v1"
	"example.test/shapes2/internal/store"
)

// retryFresh tries fn with ctx first; later attempts get a context of their own, so a
// request that timed out on the first attempt still gets its seat.
func retryFresh(ctx context.Context, n int, fn func(context.Context) error) error {
	c := ctx
	var err error
	for i := 0; i < n; i++ {
		if i > 0 {
			c = context.Background()
		}
		if err = fn(c); err == nil {
			return nil
		}
	}
	return err
}

// retryBounded gives each attempt a slice of the caller's budget.
func retryBounded(ctx context.Context, n int, fn func(context.Context) error) error {
	var err error
	for i := 0; i < n; i++ {
		actx, cancel := context.WithTimeout(ctx, 500*time.Millisecond)
		err = fn(actx)
		cancel()
		if err == nil || ctx.Err() != nil {
			return err
		}
	}
	return err
}

// JoinWaitlist puts the user on the waitlist, retrying the reservation.
func (s *Server) JoinWaitlist(ctx context.Context, req *bookingv1.BookingRequest) (*bookingv1.Booking, error) {
	err := retryBounded(ctx, 3, func(ctx context.Context) error { // OK
		return s.store.Reserve(ctx, "waitlist:"+req.GetEventId(), req.GetUserId())
	})
	if err != nil {
		return nil, err
	}
	err = retryFresh(ctx, 3, func(ctx context.Context) error { // BUG: ctxbackground
		return s.store.Log(ctx, "waitlist "+req.GetUserId())
	})
	if err != nil {
		return nil, err
	}
	for attempt := 0; ; attempt++ {
		if err := s.store.Reserve(ctx, req.GetSeatId(), req.GetUserId()); err == nil || attempt == 5 {
			break
		}
		time.Sleep(100 * time.Millisecond) // BUG: ctxless
	}
	return &bookingv1.Booking{UserId: req.GetUserId(), State: "waitlisted"}, nil
}

// Reprice recomputes the price; the save is retried by hand.
func (s *Server) Reprice(ctx context.Context, req *bookingv1.BookingRequest) (*bookingv1.Booking, error) {
	b, err := s.store.Load(ctx, req.GetBookingId())
	if err != nil {
		return nil, err
	}
	b.PriceCents += 100
	c := ctx
	for attempt := 0; attempt < 3; attempt++ {
		if attempt > 0 {
			c = context.Background() // BUG: ctxbackground
		}
		if err = s.store.Save(c, b); err == nil {
			break
		}
	}
	lctx := ctx
	for attempt := 0; attempt < 3; attempt++ {
		if attempt == 2 {
			lctx = context.WithoutCancel(ctx)
			// ^BUG: detach
		}
		if err = s.store.Log(lctx, "reprice "+b.ID); err == nil {
			break
		}
	}
	for attempt := 0; attempt < 3; attempt++ {
		if err = s.store.Save(ctx, b); err == nil {
			break
		}
		select {
		case <-ctx.Done():
			return nil, ctx.Err()
		case <-time.After(50 * time.Millisecond): // OK
		}
	}
	return toProto(b), err
}

// saveAll saves bookings, retrying each with the caller's ctx.
func (s *Server) saveAll(ctx context.Context, bs []store.Booking) error {
	for _, b := range bs {
		if err := retryBounded(ctx, 2, func(ctx context.Context) error { return s.store.Save(ctx, b) }); err != nil {
			return err
		}
	}
	return nil
}
