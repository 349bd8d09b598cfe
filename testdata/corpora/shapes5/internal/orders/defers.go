package orders

import (
	"context"
	"log/slog"
	"time"

	bookingv1 "example.test/shapes5/gen/booking/v1"
)

// CheckIn records that an order's tubes reached the lab and pages the ward
// that drew them.
func (s *Server) CheckIn(ctx context.Context, req *bookingv1.BookingRequest) (*bookingv1.Booking, error) {
	order := req.GetBookingId()
	defer s.dropDraft(order) // OK: a deferred call: cleanup ends the chain
	defer func() {
		cctx, cancel := context.WithTimeout(context.Background(), 2*time.Second) // OK: a bounded fresh ctx in the handler's deferred literal
		defer cancel()
		_ = s.st.Stamp(cctx, order, "scan-closed")
	}()
	defer func() {
		if err := s.st.Event(context.Background(), order, "checkin-closed"); err != nil { // BUG: ctxbackground
			slog.WarnContext(ctx, "custody log", "order", order, "err", err)
		}
	}()

	for _, tube := range req.GetIds() {
		if err := s.st.Stamp(ctx, tube, "received"); err != nil {
			return nil, err
		}
	}
	wctx := context.WithoutCancel(ctx)
	go s.pageWard(wctx, order, req.GetEventId()) // ^BUG: detach

	// the courier's manifest must be closed even if the scanner hangs up;
	// one update takes well under two seconds
	mctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 2*time.Second) // OK: bounded, with a reason
	go func() {
		defer cancel()
		_ = s.st.Event(mctx, order, "manifest-closed")
	}()
	return &bookingv1.Booking{Id: order, State: "received"}, nil
}

func (s *Server) dropDraft(order string) {
	_, _ = s.db.ExecContext(context.Background(), `DELETE FROM checkin_drafts WHERE order_id = $1`, order)
}

func (s *Server) pageWard(ctx context.Context, order, ward string) {
	if err := s.st.Event(ctx, order, "ward-paged:"+ward); err != nil {
		slog.WarnContext(ctx, "page ward", "order", order, "err", err)
	}
}
