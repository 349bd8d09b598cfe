package booking

import (
	"context"
	"errors"
	"io"
	"time"

	"google.golang.org/grpc"

	bookingv1 "example.test/shapes2/gen/booking/v1"
	"example.test/shapes2/internal/store"
)

// WatchSeats streams the seats of an event.
func (s *Server) WatchSeats(req *bookingv1.BookingRequest, stream grpc.ServerStreamingServer[bookingv1.SeatEvent]) error {
	ctx := stream.Context()
	seats, err := s.store.Seats(ctx, req.GetEventId(), 0) // OK
	if err != nil {
		return err
	}
	if err := s.store.Log(context.Background(), "watch "+req.GetEventId()); err != nil { // BUG: ctxbackground
		return err
	}
	for _, st := range seats {
		if err := stream.Send(&bookingv1.SeatEvent{SeatId: st.ID, State: st.State}); err != nil {
			return err
		}
	}
	more, err := s.store.Seats(s.baseCtx, req.GetEventId(), 1) // BUG: ctxflow
	if err != nil {
		return err
	}
	for _, st := range more {
		if err := stream.Send(&bookingv1.SeatEvent{SeatId: st.ID, State: st.State}); err != nil {
			return err
		}
	}
	return nil
}

// ExportBookings streams bookings, each loaded through a method value with the stream's ctx.
func (s *Server) ExportBookings(req *bookingv1.BookingRequest, stream grpc.ServerStreamingServer[bookingv1.Booking]) error {
	load := s.store.Load
	for _, id := range req.GetIds() {
		b, err := load(stream.Context(), id) // OK
		if err != nil {
			return err
		}
		if err := stream.Send(toProto(b)); err != nil {
			return err
		}
	}
	return nil
}

// ImportHolds receives holds and stores them.
func (s *Server) ImportHolds(stream grpc.ClientStreamingServer[bookingv1.BookingRequest, bookingv1.BookingList]) error {
	ctx := stream.Context()
	var bs []store.Booking
	for {
		in, err := stream.Recv()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return err
		}
		if _, err := s.db.Exec("INSERT INTO holds (seat, owner) VALUES ($1, $2)", in.GetSeatId(), in.GetUserId()); err != nil { // BUG: ctxless
			return err
		}
		bs = append(bs, store.Booking{ID: in.GetBookingId(), SeatID: in.GetSeatId(), UserID: in.GetUserId(), State: "held"})
	}
	if err := s.saveAll(ctx, bs); err != nil { // OK
		return err
	}
	return stream.SendAndClose(&bookingv1.BookingList{Total: int32(len(bs))})
}

// Negotiate haggles over a price, mirroring each offer to the log.
func (s *Server) Negotiate(stream grpc.BidiStreamingServer[bookingv1.BookingRequest, bookingv1.Booking]) error {
	ctx := stream.Context()
	for {
		in, err := stream.Recv()
		if errors.Is(err, io.EOF) {
			return nil
		}
		if err != nil {
			return err
		}
		offer := in.GetPromoCode()
		go func() {
			_ = s.store.Log(context.WithoutCancel(ctx), "offer "+offer)
			// ^BUG: detach
		}()
		go func() {
			// an accepted offer is logged even when the client hangs up; one second is enough
			lctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), time.Second) // OK
			defer cancel()
			_ = s.store.Log(lctx, "accepted "+offer)
		}()
		if err := stream.Send(&bookingv1.Booking{Id: in.GetBookingId(), State: "countered"}); err != nil {
			return err
		}
	}
}
