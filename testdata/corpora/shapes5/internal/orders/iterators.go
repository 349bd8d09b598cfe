package orders

import (
	"context"
	"iter"
	"time"

	bookingv1 "example.test/shapes5/gen/booking/v1"
)

// ReleaseExpired frees the slots of tubes whose hold ran out and flags the
// ones overdue for a result.
func (s *Server) ReleaseExpired(ctx context.Context, req *bookingv1.BookingRequest) (*bookingv1.BookingList, error) {
	out := &bookingv1.BookingList{}
	for id, sp := range s.st.Expiring(ctx, time.Now()) { // OK: the iterator queries with the request ctx
		if err := s.st.Stamp(ctx, id, "expired"); err != nil { // OK: the loop body uses the request ctx
			return nil, err
		}
		if _, err := s.db.ExecContext(ctx, `DELETE FROM slot_reservations WHERE specimen_id = $1`, id); err != nil { // OK: ExecContext
			return nil, err
		}
		out.Bookings = append(out.Bookings, &bookingv1.Booking{Id: sp.OrderID, SeatId: id, State: "expired"})
	}
	for id, sp := range s.st.Overdue() { // BUG: ctxbackground
		if _, err := s.db.Exec(`UPDATE specimens SET flagged = true WHERE id = $1`, id); err != nil { // BUG: ctxless
			return nil, err
		}
		out.Bookings = append(out.Bookings, &bookingv1.Booking{Id: sp.OrderID, SeatId: id, State: "overdue"})
	}
	out.Total = int32(len(out.Bookings))
	return out, nil
}

// ListBookings lists a patient's orders, or a visit's.
func (s *Server) ListBookings(ctx context.Context, req *bookingv1.BookingRequest) (*bookingv1.BookingList, error) {
	out := &bookingv1.BookingList{}
	if p := req.GetUserId(); p != "" {
		for b := range s.byPatient(ctx, p) { // OK: the package iterator queries with the request ctx
			out.Bookings = append(out.Bookings, b)
		}
	}
	if v := req.GetEventId(); v != "" {
		for b := range s.byVisit(v) { // BUG: ctxbackground
			out.Bookings = append(out.Bookings, b)
		}
	}
	for attempt := 0; len(out.Bookings) == 0 && attempt < 5; attempt++ {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		time.Sleep(100 * time.Millisecond) // OK: every turn of the poll checks ctx.Err()
		for b := range s.byPatient(ctx, req.GetUserId()) {
			out.Bookings = append(out.Bookings, b)
		}
	}
	out.Total = int32(len(out.Bookings))
	return out, nil
}

func (s *Server) byPatient(ctx context.Context, patient string) iter.Seq[*bookingv1.Booking] {
	return func(yield func(*bookingv1.Booking) bool) {
		rows, err := s.db.QueryContext(ctx, `SELECT id, state FROM lab_orders WHERE patient = $1`, patient)
		if err != nil {
			return
		}
		defer rows.Close()
		for rows.Next() {
			b := &bookingv1.Booking{UserId: patient}
			if rows.Scan(&b.Id, &b.State) != nil || !yield(b) {
				return
			}
		}
	}
}

func (s *Server) byVisit(visit string) iter.Seq[*bookingv1.Booking] {
	return func(yield func(*bookingv1.Booking) bool) {
		rows, err := s.db.QueryContext(context.TODO(), `SELECT id, patient, state FROM lab_orders WHERE visit = $1`, visit)
		if err != nil {
			return
		}
		defer rows.Close()
		for rows.Next() {
			b := &bookingv1.Booking{EventId: visit}
			if rows.Scan(&b.Id, &b.UserId, &b.State) != nil || !yield(b) {
				return
			}
		}
	}
}
