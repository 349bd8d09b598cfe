package orders

import (
	"context"
	"fmt"
	"strings"

	bookingv1 "example.test/shapes5/gen/booking/v1"
)

// CancelBooking cancels an order: tubes not yet run are withdrawn, and the
// ones already on an analyzer are recalled.
func (s *Server) CancelBooking(ctx context.Context, req *bookingv1.BookingRequest) (*bookingv1.Booking, error) {
	id := req.GetBookingId()
	sp, err := s.st.Load(ctx, id)
	if err != nil {
		return nil, err
	}
	if sp.Slot == "" {
		if err := s.onWithdraw(ctx, id); err != nil { // OK: the field only ever holds withdrawLocal, which works with its ctx
			return nil, err
		}
	} else {
		if err := s.onRecall(ctx, id); err != nil { // BUG: ctxbackground
			return nil, err
		}
	}
	return &bookingv1.Booking{Id: id, State: "cancelled"}, nil
}

func (s *Server) withdrawLocal(ctx context.Context, id string) error {
	return s.st.Stamp(ctx, id, "withdrawn")
}

func (s *Server) recallLocal(ctx context.Context, id string) error {
	_, err := s.db.ExecContext(context.Background(),
		`UPDATE analyzer_queue SET recalled = true WHERE specimen_id = $1`, id)
	return err
}

type transferStep struct {
	do   func(context.Context, *bookingv1.BookingRequest) error
	desc string
}

// TransferTicket sends an order to another lab site.
func (s *Server) TransferTicket(ctx context.Context, req *bookingv1.BookingRequest) (*bookingv1.Booking, error) {
	steps := map[string]transferStep{
		"detach":  {do: s.detachSlots, desc: "free the slots held here"},
		"ship":    {do: s.writeManifest, desc: "write the courier manifest"},
		"handoff": {do: s.handoffCustody, desc: "record the custody handoff"},
	}
	for _, name := range []string{"detach", "ship", "handoff"} {
		st := steps[name]
		if err := st.do(ctx, req); err != nil { // BUG: ctxbackground
			return nil, fmt.Errorf("%s (%s): %w", name, st.desc, err)
		}
	}
	notes := map[string]func(context.Context, string) error{
		"site":    s.noteSite,
		"courier": s.noteCourier,
	}
	for kind, note := range notes {
		if err := note(ctx, req.GetBookingId()); err != nil { // OK: every entry writes with its ctx
			return nil, fmt.Errorf("note %s: %w", kind, err)
		}
	}
	return &bookingv1.Booking{Id: req.GetBookingId(), EventId: req.GetEventId(), State: "in-transit"}, nil
}

func (s *Server) detachSlots(ctx context.Context, req *bookingv1.BookingRequest) error {
	_, err := s.db.ExecContext(ctx, `UPDATE analyzer_slots SET specimen_id = NULL WHERE order_id = $1`, req.GetBookingId())
	return err
}

func (s *Server) writeManifest(ctx context.Context, req *bookingv1.BookingRequest) error {
	_, err := s.db.ExecContext(context.Background(),
		`INSERT INTO courier_manifest (order_id, site) VALUES ($1, $2)`, req.GetBookingId(), req.GetEventId())
	return err
}

func (s *Server) handoffCustody(ctx context.Context, req *bookingv1.BookingRequest) error {
	return s.st.Event(ctx, req.GetBookingId(), "handoff:"+req.GetEventId())
}

func (s *Server) noteSite(ctx context.Context, id string) error {
	return s.st.Event(ctx, id, "site-notified")
}

func (s *Server) noteCourier(ctx context.Context, id string) error {
	return s.st.Event(ctx, id, "courier-booked")
}

// ApplyPromo applies a coverage or priority code to an order.
func (s *Server) ApplyPromo(ctx context.Context, req *bookingv1.BookingRequest) (*bookingv1.Booking, error) {
	code := req.GetPromoCode()
	checks := []func(context.Context, string) error{s.checkCoverage, s.checkFormulary}
	for _, check := range checks {
		if err := check(ctx, code); err != nil { // OK: both checks read with their ctx
			return nil, err
		}
	}

	var price func(context.Context, string) (int64, error)
	if strings.HasPrefix(code, "STAT") {
		price = s.statTariff
	} else {
		price = s.tariffs.Get
	}
	cents, err := price(ctx, code) // OK: statTariff and the cache's loader (s.st.Tariff) both read with the ctx
	if err != nil {
		return nil, err
	}

	var record func(context.Context, string) error
	if req.GetCount() > 1 {
		record = s.splitAliquots
	} else {
		record = s.keepWhole
	}
	if err := record(ctx, req.GetSeatId()); err != nil { // BUG: ctxbackground
		return nil, err
	}
	return &bookingv1.Booking{Id: req.GetBookingId(), PriceCents: cents, State: "coded"}, nil
}

func (s *Server) checkCoverage(ctx context.Context, code string) error {
	var n int
	if err := s.db.QueryRowContext(ctx, `SELECT count(*) FROM coverage WHERE code = $1`, code).Scan(&n); err != nil {
		return err
	}
	if n == 0 {
		return fmt.Errorf("code %q not covered", code)
	}
	return nil
}

func (s *Server) checkFormulary(ctx context.Context, code string) error {
	_, err := s.db.ExecContext(ctx, `SELECT 1 FROM formulary WHERE code = $1`, code)
	return err
}

func (s *Server) statTariff(ctx context.Context, code string) (int64, error) {
	cents, err := s.st.Tariff(ctx, strings.TrimPrefix(code, "STAT"))
	return cents * 2, err
}

func (s *Server) splitAliquots(ctx context.Context, tube string) error {
	return s.st.Stamp(ctx, tube, "aliquoted")
}

func (s *Server) keepWhole(ctx context.Context, tube string) error {
	return s.st.Stamp(context.TODO(), tube, "whole")
}
