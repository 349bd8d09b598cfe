package instruments

import (
	"context"
	"errors"
	"io"
	"os/exec"

	venuev1 "example.test/shapes5/gen/venue/v1"
	"example.test/shapes5/internal/lifecycle"
)

// StreamSeatMap streams a bench's rack positions, then the positions of the
// runs queued on it.
func (s *Server) StreamSeatMap(req *venuev1.VenueRequest, stream venuev1.VenueService_StreamSeatMapServer) error {
	m, err := s.GetSeatMap(stream.Context(), req) // OK: the stream's ctx
	if err != nil {
		return err
	}
	for _, seat := range m.GetSeats() {
		if err := stream.Send(seat); err != nil {
			return err
		}
	}
	rows, err := s.sql.QueryContext(lifecycle.Context(), // BUG: ctxflow
		`SELECT pos, rack_row FROM run_queue WHERE bench = $1`, req.GetVenueId())
	if err != nil {
		return err
	}
	defer rows.Close()
	for rows.Next() {
		seat := &venuev1.Seat{State: "queued"}
		if err := rows.Scan(&seat.Id, &seat.Row); err != nil {
			return err
		}
		if err := stream.Send(seat); err != nil {
			return err
		}
	}
	return rows.Err()
}

// UploadSeats takes a rack's positions from a bench and prints its labels.
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
		m.Seats = append(m.Seats, seat)
	}
	args := make([]string, 0, len(m.GetSeats()))
	for _, seat := range m.GetSeats() {
		args = append(args, seat.GetId())
	}
	if err := exec.CommandContext(ctx, "rack-labels", args...).Run(); err != nil { // OK: CommandContext with the stream's ctx
		return err
	}
	return stream.SendAndClose(m)
}

// SyncHolds mirrors a bench's holds both ways. A bench has one sync session at
// a time: the rack's writes run under the session that owns it, so that
// ending the session cancels them.
func (s *Server) SyncHolds(stream venuev1.VenueService_SyncHoldsServer) error {
	ctx, cancel := context.WithCancel(stream.Context())
	defer cancel()
	var owned []string
	defer func() {
		s.holds.mu.Lock()
		for _, rack := range owned {
			delete(s.holds.owner, rack)
		}
		s.holds.mu.Unlock()
	}()
	for {
		seat, err := stream.Recv()
		if errors.Is(err, io.EOF) {
			return nil
		}
		if err != nil {
			return err
		}
		s.holds.mu.Lock()
		owner, ok := s.holds.owner[seat.GetRow()]
		if !ok {
			s.holds.owner[seat.GetRow()] = ctx
			owned = append(owned, seat.GetRow())
			owner = ctx
		}
		s.holds.mu.Unlock()
		if _, err := s.sql.ExecContext(owner, `UPDATE rack_positions SET tube_state = $2 WHERE pos = $1`, seat.GetId(), seat.GetState()); err != nil { // OK: a map of request ctxs in flight, kept to be cancelled
			return err
		}
		if err := stream.Send(seat); err != nil {
			return err
		}
	}
}
