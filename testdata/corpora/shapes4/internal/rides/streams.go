package rides

import (
	"context"
	"errors"
	"io"
	"time"

	"google.golang.org/grpc"

	bookingv1 "example.test/shapes4/gen/booking/v1"
	"example.test/shapes4/internal/tripstore"
)

// snapshot reads the current seat states of a trip.
func (s *Server) snapshot(tripID string) ([]tripstore.Ride, error) {
	return s.st.ByTrip(context.Background(), tripID)
}

// WatchSeats streams the seat states of a trip: a snapshot first, then every change.
func (s *Server) WatchSeats(req *bookingv1.BookingRequest, stream grpc.ServerStreamingServer[bookingv1.SeatEvent]) error {
	ctx := stream.Context()
	rides, err := s.snapshot(req.GetEventId()) // BUG: ctxbackground
	if err != nil {
		return err
	}
	for _, r := range rides {
		if err := stream.Send(&bookingv1.SeatEvent{SeatId: r.SeatID, State: r.State}); err != nil {
			return err
		}
	}
	t := time.NewTicker(2 * time.Second)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-t.C:
		}
		changed, err := s.st.ByTrip(ctx, req.GetEventId()) // OK: the stream's ctx
		if err != nil {
			return err
		}
		for _, r := range changed {
			if err := stream.Send(&bookingv1.SeatEvent{SeatId: r.SeatID, State: r.State}); err != nil {
				return err
			}
		}
	}
}

// ExportBookings streams every booking of a trip, or of a rider.
func (s *Server) ExportBookings(req *bookingv1.BookingRequest, stream grpc.ServerStreamingServer[bookingv1.Booking]) error {
	var rides []tripstore.Ride
	var err error
	if rider := req.GetUserId(); rider != "" {
		for r, rerr := range s.byTrip(stream.Context(), req.GetEventId()) { // OK: the stream's ctx
			if rerr != nil {
				return rerr
			}
			if r.RiderID == rider {
				rides = append(rides, r)
			}
		}
	} else {
		rides, err = s.st.ByTrip(s.baseCtx, req.GetEventId()) // BUG: ctxflow
		if err != nil {
			return err
		}
	}
	for _, r := range rides {
		if err := stream.Send(toProto(r)); err != nil {
			return err
		}
	}
	return nil
}

// ImportHolds takes a batch of holds from a partner's booking system.
func (s *Server) ImportHolds(stream grpc.ClientStreamingServer[bookingv1.BookingRequest, bookingv1.BookingList]) error {
	ctx := stream.Context()
	out := &bookingv1.BookingList{}
	for {
		req, err := stream.Recv()
		if errors.Is(err, io.EOF) {
			out.Total = int32(len(out.Bookings))
			return stream.SendAndClose(out)
		}
		if err != nil {
			return err
		}
		r := tripstore.Ride{ID: req.GetBookingId(), TripID: req.GetEventId(), SeatID: req.GetSeatId(), RiderID: req.GetUserId(), State: "held"}
		if err := s.st.Save(ctx, r); err != nil { // OK: the stream's ctx
			return err
		}
		out.Bookings = append(out.Bookings, toProto(r))
	}
}

// Negotiate lets a rider haggle over a seat: each offer is answered with the booking as it
// stands.
func (s *Server) Negotiate(stream grpc.BidiStreamingServer[bookingv1.BookingRequest, bookingv1.Booking]) error {
	ctx := stream.Context()
	first, err := stream.Recv()
	if err != nil {
		return err
	}
	go s.warmSeats(ctx, first.GetEventId())
	go s.prefetch(ctx, first.GetBookingId())
	// the audit row of a negotiation is kept even when the rider hangs up; two seconds is
	// plenty for one insert
	actx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 2*time.Second) // OK: detached with a bound and a reason
	defer cancel()
	defer s.audit(actx, "ride.negotiated", first.GetBookingId())
	for req := first; ; {
		r, err := s.st.Load(ctx, req.GetBookingId())
		if err != nil {
			return err
		}
		if err := stream.Send(toProto(r)); err != nil {
			return err
		}
		if req, err = stream.Recv(); err != nil {
			if errors.Is(err, io.EOF) {
				return nil
			}
			return err
		}
	}
}

// warmSeats loads the seats of a trip into the ride cache; only Negotiate starts it.
func (s *Server) warmSeats(ctx context.Context, tripID string) {
	rides, err := s.st.ByTrip(context.Background(), tripID) // BUG: ctxbackground
	if err != nil {
		s.log.WarnContext(ctx, "warm seats", "trip", tripID, "err", err)
		return
	}
	s.log.DebugContext(ctx, "warm seats", "trip", tripID, "n", len(rides))
}

// prefetch loads one ride into the cache; only Negotiate starts it.
func (s *Server) prefetch(ctx context.Context, id string) {
	if _, err := s.rides.Get(ctx, id); err != nil { // OK: the goroutine's body uses the request ctx it was given
		s.log.DebugContext(ctx, "prefetch", "id", id, "err", err)
	}
}
