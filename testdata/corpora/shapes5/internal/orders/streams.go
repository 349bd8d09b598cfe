package orders

import (
	"context"
	"errors"
	"io"
	"log/slog"
	"time"

	"google.golang.org/grpc"

	bookingv1 "example.test/shapes5/gen/booking/v1"
)

// WatchSeats streams the free slots of an analyzer, then their changes.
func (s *Server) WatchSeats(req *bookingv1.BookingRequest, stream grpc.ServerStreamingServer[bookingv1.SeatEvent]) error {
	ctx := stream.Context()
	analyzer := req.GetSeatId()
	free, err := s.st.FreeSlots(ctx, analyzer) // OK: the stream's ctx
	if err != nil {
		return err
	}
	reserved, err := s.rackSnapshot(analyzer) // BUG: ctxbackground
	if err != nil {
		return err
	}
	for _, slot := range free {
		if err := stream.Send(&bookingv1.SeatEvent{SeatId: slot, State: "free"}); err != nil {
			return err
		}
	}
	for _, slot := range reserved {
		if err := stream.Send(&bookingv1.SeatEvent{SeatId: slot, State: "reserved"}); err != nil {
			return err
		}
	}
	return nil
}

func (s *Server) rackSnapshot(analyzer string) ([]string, error) {
	rows, err := s.db.QueryContext(context.Background(),
		`SELECT slot FROM slot_reservations WHERE analyzer = $1`, analyzer)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []string
	for rows.Next() {
		var slot string
		if err := rows.Scan(&slot); err != nil {
			return nil, err
		}
		out = append(out, slot)
	}
	return out, rows.Err()
}

// ExportBookings streams the orders whose holds end within the day.
func (s *Server) ExportBookings(req *bookingv1.BookingRequest, stream grpc.ServerStreamingServer[bookingv1.Booking]) error {
	cutoff := time.Now().Add(24 * time.Hour)
	var ids []string
	for id := range s.st.Expiring(stream.Context(), cutoff) { // OK: the iterator queries with the stream's ctx
		ids = append(ids, id)
	}
	for _, id := range ids {
		sp, err := s.st.Load(s.baseCtx, id) // BUG: ctxflow
		if err != nil {
			return err
		}
		if err := stream.Send(&bookingv1.Booking{Id: sp.OrderID, SeatId: id, UserId: sp.Patient, State: sp.State}); err != nil {
			return err
		}
	}
	return nil
}

// ImportHolds takes a stream of slot reservations from the ward systems.
func (s *Server) ImportHolds(stream grpc.ClientStreamingServer[bookingv1.BookingRequest, bookingv1.BookingList]) error {
	ctx := stream.Context()
	ins, err := s.db.PrepareContext(ctx, `INSERT INTO slot_reservations (order_id, slot) VALUES ($1, $2)`) // OK: PrepareContext with the stream's ctx
	if err != nil {
		return err
	}
	defer ins.Close()
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
		if _, err := ins.ExecContext(ctx, req.GetBookingId(), req.GetSeatId()); err != nil { // OK: ExecContext with the stream's ctx
			return err
		}
		out.Bookings = append(out.Bookings, &bookingv1.Booking{Id: req.GetBookingId(), SeatId: req.GetSeatId(), State: "held"})
	}
}

// Negotiate lets a ward system propose slots for its orders and answers with
// the slot the lab accepts.
func (s *Server) Negotiate(stream grpc.BidiStreamingServer[bookingv1.BookingRequest, bookingv1.Booking]) error {
	ctx := stream.Context()
	for {
		req, err := stream.Recv()
		if errors.Is(err, io.EOF) {
			return nil
		}
		if err != nil {
			return err
		}
		go s.warmRack(ctx, req.GetSeatId())
		go s.prefetchTariff(ctx, req.GetPromoCode())
		if err := s.st.Stamp(ctx, req.GetBookingId(), "proposed:"+req.GetSeatId()); err != nil {
			return err
		}
		if err := stream.Send(&bookingv1.Booking{Id: req.GetBookingId(), SeatId: req.GetSeatId(), State: "accepted"}); err != nil {
			return err
		}
	}
}

// warmRack loads an analyzer's rack map before the tube arrives.
func (s *Server) warmRack(ctx context.Context, analyzer string) {
	free, err := s.st.FreeSlots(context.Background(), analyzer) // BUG: ctxbackground
	if err != nil {
		slog.WarnContext(ctx, "warm rack", "analyzer", analyzer, "err", err)
		return
	}
	slog.DebugContext(ctx, "rack warm", "analyzer", analyzer, "free", len(free))
}

func (s *Server) prefetchTariff(ctx context.Context, code string) {
	if _, err := s.tariffs.Get(ctx, code); err != nil { // OK: a goroutine body using the stream ctx it was given
		slog.WarnContext(ctx, "prefetch tariff", "code", code, "err", err)
	}
}
