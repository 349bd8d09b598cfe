package venue

import (
	"context"
	"errors"
	"io"
	"time"

	venuev1 "example.test/shapes2/gen/venue/v1"
)

// StreamSeatMap streams the seats of an event (older generated stream interface).
func (s *Server) StreamSeatMap(req *venuev1.VenueRequest, stream venuev1.VenueService_StreamSeatMapServer) error {
	seats, err := s.store.Seats(stream.Context(), req.GetEventId(), 0) // OK
	if err != nil {
		return err
	}
	for _, st := range seats {
		if err := stream.Send(&venuev1.Seat{Id: st.ID, State: st.State}); err != nil {
			return err
		}
	}
	return s.store.Log(context.Background(), "seatmap streamed "+req.GetEventId()) // BUG: ctxbackground
}

// UploadSeats receives a seat map; it waits for the layout lock first.
func (s *Server) UploadSeats(stream venuev1.VenueService_UploadSeatsServer) error {
	ctx := stream.Context()
	for s.store.Unlock(ctx, "layout") != nil {
		time.Sleep(200 * time.Millisecond) // BUG: ctxless
	}
	out := &venuev1.SeatMap{}
	for {
		seat, err := stream.Recv()
		if errors.Is(err, io.EOF) {
			return stream.SendAndClose(out)
		}
		if err != nil {
			return err
		}
		if err := s.store.Reserve(ctx, seat.GetId(), "layout"); err != nil { // OK
			return err
		}
		out.Seats = append(out.Seats, seat)
	}
}

// SyncHolds mirrors holds both ways.
func (s *Server) SyncHolds(stream venuev1.VenueService_SyncHoldsServer) error {
	for {
		seat, err := stream.Recv()
		if errors.Is(err, io.EOF) {
			return nil
		}
		if err != nil {
			return err
		}
		if err := s.store.Reserve(stream.Context(), seat.GetId(), "sync"); err != nil { // OK
			return err
		}
		if err := s.store.Log(lifetime, "synced "+seat.GetId()); err != nil { // BUG: ctxflow
			return err
		}
		if err := stream.Send(seat); err != nil {
			return err
		}
	}
}
