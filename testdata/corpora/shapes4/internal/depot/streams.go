package depot

import (
	"errors"
	"io"
	"time"

	venuev1 "example.test/shapes4/gen/venue/v1"
	"example.test/shapes4/internal/lifecycle"
	"example.test/shapes4/internal/zonedb"
)

// StreamSeatMap streams the bays of a zone, the blocked ones first.
func (s *Server) StreamSeatMap(req *venuev1.VenueRequest, stream venuev1.VenueService_StreamSeatMapServer) error {
	if _, err := s.zones.Get(stream.Context(), req.GetVenueId()); err != nil { // OK: the stream's ctx
		return err
	}
	bays, err := s.zones.Bays(lifecycle.Context(), req.GetVenueId()) // BUG: ctxflow
	if err != nil {
		return err
	}
	for _, blockedFirst := range []bool{true, false} {
		for _, b := range bays {
			if (b.State == "blocked") != blockedFirst {
				continue
			}
			if err := stream.Send(&venuev1.Seat{Id: b.ID, Row: b.Row, State: b.State}); err != nil {
				return err
			}
		}
	}
	return nil
}

// UploadSeats replaces the bays of a zone with the uploaded ones.
func (s *Server) UploadSeats(stream venuev1.VenueService_UploadSeatsServer) error {
	ctx := stream.Context()
	m := &venuev1.SeatMap{}
	for {
		seat, err := stream.Recv()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return err
		}
		zone, _, _ := cut(seat.GetId())
		if err := s.zones.PutBay(ctx, zone, zonedb.Bay{ID: seat.GetId(), Row: seat.GetRow(), State: seat.GetState()}); err != nil { // OK: the stream's ctx
			return err
		}
		m.Seats = append(m.Seats, seat)
	}
	for s.replicaLag() > time.Second {
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(100 * time.Millisecond): // OK: the wait also ends on ctx.Done()
		}
	}
	return stream.SendAndClose(m)
}

// SyncHolds mirrors bay holds both ways between a depot terminal and the service.
func (s *Server) SyncHolds(stream venuev1.VenueService_SyncHoldsServer) error {
	ctx := stream.Context()
	for {
		seat, err := stream.Recv()
		if errors.Is(err, io.EOF) {
			return nil
		}
		if err != nil {
			return err
		}
		zone, _, _ := cut(seat.GetId())
		if err := s.zones.PutBay(ctx, zone, zonedb.Bay{ID: seat.GetId(), Row: seat.GetRow(), State: seat.GetState()}); err != nil { // OK: the stream's ctx
			return err
		}
		if err := stream.Send(seat); err != nil {
			return err
		}
	}
}

func (s *Server) replicaLag() time.Duration { return 0 }

func cut(bayID string) (zone, bay string, ok bool) {
	for i := 0; i < len(bayID); i++ {
		if bayID[i] == '/' {
			return bayID[:i], bayID[i+1:], true
		}
	}
	return bayID, "", false
}
