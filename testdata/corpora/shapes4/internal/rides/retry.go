package rides

import (
	"context"
	"time"

	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	bookingv1 "example.test/shapes4/gen/booking/v1"
	paymentv1 "example.test/shapes4/gen/payment/v1"
	"example.test/shapes4/internal/tripstore"
)

func backoff(attempt int) time.Duration {
	return time.Duration(1<<attempt) * 25 * time.Millisecond
}

// JoinWaitlist puts a rider on a full trip's waitlist. The waitlist row is hot, so the insert
// is retried.
func (s *Server) JoinWaitlist(ctx context.Context, req *bookingv1.BookingRequest) (*bookingv1.Booking, error) {
	w := tripstore.Ride{
		ID:      "wait-" + req.GetEventId() + "-" + req.GetUserId(),
		TripID:  req.GetEventId(),
		RiderID: req.GetUserId(),
		State:   "waitlisted",
	}
	c := ctx
	var err error
	for attempt := 0; attempt < 4; attempt++ {
		if err = s.st.Save(c, w); err == nil {
			break
		}
		if attempt == 1 {
			c = context.Background() // BUG: ctxbackground
		}
		time.Sleep(backoff(attempt)) // BUG: ctxless
	}
	if err != nil {
		return nil, err
	}
	return toProto(w), nil
}

// Reprice re-authorises the fare of a booking after a route change, on the primary fare
// provider or, while it is unavailable, on its disaster-recovery region.
func (s *Server) Reprice(ctx context.Context, req *bookingv1.BookingRequest) (*bookingv1.Booking, error) {
	r, err := s.st.Load(ctx, req.GetBookingId())
	if err != nil {
		return nil, err
	}
	pay := s.pay
	var res *paymentv1.PaymentResult
	for attempt := 0; attempt < 3; attempt++ {
		actx, cancel := context.WithTimeout(ctx, 2*time.Second)
		res, err = pay.Authorize(actx, &paymentv1.PaymentRequest{BookingId: r.ID, AmountCents: r.FareCents}) // OK: the client is a phi, the ctx is the request's with a bound
		cancel()
		if status.Code(err) != codes.Unavailable {
			break
		}
		pay = s.payDR
		select {
		case <-ctx.Done():
			return nil, ctx.Err()
		case <-time.After(backoff(attempt)): // OK: the backoff waits on ctx.Done() too
		}
	}
	if err != nil {
		return nil, err
	}
	r.State = res.GetState()
	return toProto(r), s.st.Save(ctx, r)
}
