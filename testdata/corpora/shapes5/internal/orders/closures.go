package orders

import (
	"context"
	"fmt"

	bookingv1 "example.test/shapes5/gen/booking/v1"
	paymentv1 "example.test/shapes5/gen/payment/v1"
)

// SplitBooking splits an order's primary tube into aliquots, one per
// requested department.
func (s *Server) SplitBooking(ctx context.Context, req *bookingv1.BookingRequest) (*bookingv1.BookingList, error) {
	order := req.GetBookingId()
	done, err := s.acquire(ctx, "split:"+order)
	if err != nil {
		return nil, err
	}
	defer done() // OK: a deferred call of the returned closure: cleanup ends the chain

	write := s.aliquotWriter(order)
	out := &bookingv1.BookingList{}
	for i, dept := range req.GetIds() {
		id := fmt.Sprintf("%s-%d", order, i+1)
		if err := write(ctx, id, dept); err != nil { // OK: the returned closure writes with the ctx it is called with
			return nil, err
		}
		out.Bookings = append(out.Bookings, &bookingv1.Booking{Id: id, EventId: dept, State: "aliquoted"})
	}
	seal := s.sealer(order, len(out.Bookings))
	if err := seal(); err != nil { // BUG: ctxbackground
		return nil, err
	}
	out.Total = int32(len(out.Bookings))
	return out, nil
}

// acquire takes the named lock and returns the function that releases it.
func (s *Server) acquire(ctx context.Context, key string) (func(), error) {
	if _, err := s.db.ExecContext(ctx, `INSERT INTO order_locks (key) VALUES ($1)`, key); err != nil {
		return nil, err
	}
	return func() {
		_, _ = s.db.ExecContext(context.Background(), `DELETE FROM order_locks WHERE key = $1`, key)
	}, nil
}

func (s *Server) aliquotWriter(order string) func(context.Context, string, string) error {
	return func(ctx context.Context, id, dept string) error {
		_, err := s.db.ExecContext(ctx,
			`INSERT INTO specimens (id, order_id, department, state) VALUES ($1, $2, $3, 'aliquoted')`, id, order, dept)
		return err
	}
}

func (s *Server) sealer(order string, n int) func() error {
	return func() error {
		_, err := s.db.ExecContext(context.Background(),
			`UPDATE lab_orders SET aliquots = $2, sealed = true WHERE id = $1`, order, n)
		return err
	}
}

// MergeBookings moves the tubes of duplicate orders onto the first one.
func (s *Server) MergeBookings(ctx context.Context, req *bookingv1.BookingRequest) (*bookingv1.Booking, error) {
	ids := req.GetIds()
	if len(ids) < 2 {
		return nil, fmt.Errorf("merge needs two orders, got %d", len(ids))
	}
	target, sources := ids[0], ids[1:]
	move := s.mover(target)(ctx)
	for _, src := range sources {
		if err := move(src); err != nil { // OK: the inner literal works with the request ctx the outer one captured
			return nil, err
		}
	}
	if err := s.mergeNote(target)(len(sources))(ctx); err != nil { // BUG: ctxbackground
		return nil, err
	}
	return &bookingv1.Booking{Id: target, State: "merged"}, nil
}

func (s *Server) mover(target string) func(context.Context) func(string) error {
	return func(ctx context.Context) func(string) error {
		return func(src string) error {
			_, err := s.db.ExecContext(ctx, `UPDATE specimens SET order_id = $1 WHERE order_id = $2`, target, src)
			return err
		}
	}
}

func (s *Server) mergeNote(target string) func(int) func(context.Context) error {
	return func(n int) func(context.Context) error {
		return func(ctx context.Context) error {
			return s.st.Event(context.Background(), target, fmt.Sprintf("merged:%d", n))
		}
	}
}

// RefundBooking refunds the patient's copay and the insurer's share of a
// cancelled order.
func (s *Server) RefundBooking(ctx context.Context, req *bookingv1.BookingRequest) (*bookingv1.Booking, error) {
	order := req.GetBookingId()
	sp, err := s.st.Load(ctx, order)
	if err != nil {
		return nil, err
	}
	claim := s.claimRefund(order)
	if err := claim(ctx); err != nil { // OK: the returned closure refunds with the request ctx it is given
		return nil, err
	}
	copay := s.copayRefund(order, int64(req.GetCount())*100)
	if err := copay(); err != nil {
		return nil, err
	}
	return &bookingv1.Booking{Id: order, UserId: sp.Patient, State: "refunded"}, nil
}

func (s *Server) claimRefund(order string) func(context.Context) error {
	return func(ctx context.Context) error {
		_, err := s.claims.Refund(ctx, &paymentv1.PaymentRequest{BookingId: order})
		return err
	}
}

func (s *Server) copayRefund(order string, cents int64) func() error {
	return func() error {
		_, err := s.claims.Refund(context.Background(), &paymentv1.PaymentRequest{BookingId: order, AmountCents: cents}) // BUG: missingdeadline
		return err
	}
}
