package booking

import (
	"context"

	bookingv1 "example.test/shapes2/gen/booking/v1"
	"example.test/shapes2/internal/store"
)

// releaser returns a step factory: the step releases seat with the ctx it is given.
func (s *Server) releaser(seat string) func() func(context.Context) error {
	return func() func(context.Context) error {
		return func(ctx context.Context) error {
			return s.store.Release(ctx, seat)
		}
	}
}

// archiver returns a step factory whose step saves b on a context of its own.
func (s *Server) archiver(b store.Booking) func() func() error {
	return func() func() error {
		return func() error {
			b.State = "archived"
			return s.store.Save(context.Background(), b)
		}
	}
}

// SplitBooking splits a booking into one per seat.
func (s *Server) SplitBooking(ctx context.Context, req *bookingv1.BookingRequest) (*bookingv1.BookingList, error) {
	b, err := s.store.Load(ctx, req.GetBookingId())
	if err != nil {
		return nil, err
	}
	if err := s.releaser(b.SeatID)()(ctx); err != nil { // OK
		return nil, err
	}
	if err := s.archiver(b)()(); err != nil { // BUG: ctxbackground
		return nil, err
	}
	out := &bookingv1.BookingList{}
	for _, seat := range req.GetIds() {
		nb := store.Booking{ID: b.ID + ":" + seat, SeatID: seat, UserID: b.UserID}
		saveStep := func() func() error {
			return func() error { return s.store.Save(ctx, nb) } // OK
		}
		if err := saveStep()(); err != nil {
			return nil, err
		}
		out.Bookings = append(out.Bookings, toProto(nb))
	}
	return out, nil
}

// MergeBookings merges bookings into the first.
func (s *Server) MergeBookings(ctx context.Context, req *bookingv1.BookingRequest) (*bookingv1.Booking, error) {
	ids := req.GetIds()
	if len(ids) == 0 {
		return &bookingv1.Booking{}, nil
	}
	mergeStep := func(id string) func() func() error {
		return func() func() error {
			return func() error {
				b, err := s.store.Load(context.Background(), id) // BUG: ctxbackground
				if err != nil {
					return err
				}
				b.State = "merged:" + ids[0]
				return s.store.Save(ctx, b)
			}
		}
	}
	cleanup := func() func() error {
		return func() error {
			_, err := s.db.Exec("DELETE FROM merge_scratch WHERE owner = $1", ids[0]) // BUG: ctxless
			return err
		}
	}
	for _, id := range ids[1:] {
		if err := mergeStep(id)()(); err != nil {
			return nil, err
		}
	}
	if err := cleanup()(); err != nil {
		return nil, err
	}
	return &bookingv1.Booking{Id: ids[0], State: "merged"}, nil
}
