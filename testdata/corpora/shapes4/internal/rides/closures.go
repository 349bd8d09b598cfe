package rides

import (
	"context"
	"fmt"

	bookingv1 "example.test/shapes4/gen/booking/v1"
	"example.test/shapes4/internal/tripstore"
)

// stager prepares saving one part of a split: the outer func validates, the inner one saves
// with the ctx the stager was given.
func (s *Server) stager(ctx context.Context, part tripstore.Ride) func() func() error {
	return func() func() error {
		if part.SeatID == "" {
			return func() error { return fmt.Errorf("part %s has no seat", part.ID) }
		}
		return func() error { return s.st.Save(ctx, part) }
	}
}

// archiver prepares archiving the original of a split booking.
func (s *Server) archiver(orig tripstore.Ride) func() func() error {
	return func() func() error {
		orig.State = "split"
		return func() error { return s.st.Save(context.Background(), orig) }
	}
}

// SplitBooking splits a group booking into one booking per rider.
func (s *Server) SplitBooking(ctx context.Context, req *bookingv1.BookingRequest) (*bookingv1.BookingList, error) {
	orig, err := s.st.Load(ctx, req.GetBookingId())
	if err != nil {
		return nil, err
	}
	out := &bookingv1.BookingList{}
	for i, rider := range req.GetIds() {
		part := orig
		part.ID = fmt.Sprintf("%s-%d", orig.ID, i+1)
		part.RiderID = rider
		part.FareCents = orig.FareCents / int64(len(req.GetIds()))
		if err := s.stager(ctx, part)()(); err != nil { // OK: the inner closure saves with the request ctx it captured
			return nil, err
		}
		out.Bookings = append(out.Bookings, toProto(part))
	}
	if err := s.archiver(orig)()(); err != nil { // BUG: ctxbackground
		return nil, err
	}
	out.Total = int32(len(out.Bookings))
	return out, nil
}

// MergeBookings merges the listed bookings into the first one.
func (s *Server) MergeBookings(ctx context.Context, req *bookingv1.BookingRequest) (*bookingv1.Booking, error) {
	ids := req.GetIds()
	if len(ids) < 2 {
		return nil, fmt.Errorf("merge needs two bookings, got %d", len(ids))
	}
	dst, err := s.st.Load(ctx, ids[0])
	if err != nil {
		return nil, err
	}
	mergeInto := func(dst *tripstore.Ride) func(string) error {
		return func(id string) error {
			src, err := s.st.Load(ctx, id) // OK: the inner literal uses the request ctx it captured
			if err != nil {
				return err
			}
			dst.FareCents += src.FareCents
			return s.st.SetState(context.Background(), id, "merged") // BUG: ctxbackground
		}
	}
	merge := mergeInto(&dst)
	for _, id := range ids[1:] {
		if err := merge(id); err != nil {
			return nil, err
		}
	}
	if err := s.st.Save(ctx, dst); err != nil {
		return nil, err
	}
	return toProto(dst), nil
}
