package orders

import (
	"context"
	"time"

	bookingv1 "example.test/shapes5/gen/booking/v1"
	paymentv1 "example.test/shapes5/gen/payment/v1"
)

func backoff(attempt int) time.Duration {
	return time.Duration(attempt+1) * 150 * time.Millisecond
}

// JoinWaitlist puts an order on the STAT queue once the insurer has
// pre-authorised it.
func (s *Server) JoinWaitlist(ctx context.Context, req *bookingv1.BookingRequest) (*bookingv1.Booking, error) {
	order := req.GetBookingId()
	cl := s.claims
	var err error
	for attempt := 0; attempt < 3; attempt++ {
		actx, cancel := context.WithTimeout(ctx, 2*time.Second)
		_, err = cl.Authorize(actx, &paymentv1.PaymentRequest{BookingId: order}) // OK: request ctx, bounded per attempt; the client is a phi (primary, then DR)
		cancel()
		if err == nil {
			break
		}
		cl = s.claimsDR
		select {
		case <-ctx.Done():
			return nil, ctx.Err()
		case <-time.After(backoff(attempt)): // OK: the backoff also waits on ctx.Done()
		}
	}
	if err != nil {
		return nil, err
	}

	c := ctx
	for attempt := 0; ; attempt++ {
		err = s.st.Stamp(c, order, "stat-queued")
		if err == nil || attempt == 3 {
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
	return &bookingv1.Booking{Id: order, State: "stat-queued"}, nil
}
