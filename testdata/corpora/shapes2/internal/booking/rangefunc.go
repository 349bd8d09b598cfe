package booking

import (
	"context"
	"iter"

	bookingv1 "example.test/shapes2/gen/booking/v1"
	"example.test/shapes2/internal/seq"
)

// expired yields the expired holds, loaded with ctx.
func (s *Server) expired(ctx context.Context) iter.Seq[string] {
	return func(yield func(string) bool) {
		ids, err := s.store.Expired(ctx)
		if err != nil {
			return
		}
		for _, id := range ids {
			if !yield(id) {
				return
			}
		}
	}
}

// stale yields holds the sweeper marked stale.
func (s *Server) stale() iter.Seq2[int, string] {
	return func(yield func(int, string) bool) {
		ids, err := s.store.Expired(context.Background())
		if err != nil {
			return
		}
		for i, id := range ids {
			if !yield(i, id) {
				return
			}
		}
	}
}

// ReleaseExpired releases expired and stale holds.
func (s *Server) ReleaseExpired(ctx context.Context, req *bookingv1.BookingRequest) (*bookingv1.BookingList, error) {
	out := &bookingv1.BookingList{}
	for id := range s.expired(ctx) { // OK
		if err := s.store.Release(ctx, id); err != nil {
			return nil, err
		}
		if _, err := s.db.Exec("DELETE FROM holds WHERE id = $1", id); err != nil { // BUG: ctxless
			return nil, err
		}
		out.Total++
	}
	for _, id := range s.stale() { // BUG: ctxbackground
		if err := s.store.Release(ctx, id); err != nil {
			return nil, err
		}
		if _, err := s.db.ExecContext(ctx, "DELETE FROM holds WHERE id = $1", id); err != nil { // OK
			return nil, err
		}
	}
	for id := range seq.Strings(req.GetIds()) { // OK
		if err := s.store.Release(ctx, id); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// countPages counts seats page by page, with ctx, and then through the package iterator
// that loads on a context of its own.
func (s *Server) countPages(ctx context.Context, eventID string) (int, error) {
	n := 0
	for _, seats := range seq.Pages(ctx, s.store, eventID) {
		n += len(seats)
	}
	return n, nil
}

// HoldSeat holds a seat after checking the event's seats in another package's iterators.
func (s *Server) HoldSeat(ctx context.Context, req *bookingv1.BookingRequest) (*bookingv1.Booking, error) {
	for page, seats := range seq.Pages(ctx, s.store, req.GetEventId()) { // OK
		for _, st := range seats {
			if st.ID == req.GetSeatId() && st.State != "" {
				return nil, errTaken(page)
			}
		}
	}
	for st := range seq.All(s.store, req.GetEventId()) { // BUG: ctxbackground
		if st.ID == req.GetSeatId() {
			break
		}
	}
	if err := s.store.Reserve(ctx, req.GetSeatId(), req.GetUserId()); err != nil {
		return nil, err
	}
	return &bookingv1.Booking{SeatId: req.GetSeatId(), UserId: req.GetUserId(), State: "held"}, nil
}
