package orders

import (
	"context"
	"database/sql"
	"fmt"
	"log/slog"
	"time"

	bookingv1 "example.test/shapes5/gen/booking/v1"
	venuev1 "example.test/shapes5/gen/venue/v1"
	"example.test/shapes5/internal/batch"
	"example.test/shapes5/internal/specimens"
)

// HoldSeat queues each tube of the order on a free analyzer slot.
func (s *Server) HoldSeat(ctx context.Context, req *bookingv1.BookingRequest) (*bookingv1.Booking, error) {
	tubes := req.GetIds()
	if err := s.forTubes(ctx, tubes, s.markQueued); err != nil { // OK: markQueued stamps with the ctx it is given
		return nil, err
	}
	if err := s.forTubes(ctx, tubes, s.markScanned); err != nil { // BUG: ctxbackground
		return nil, err
	}
	return &bookingv1.Booking{Id: req.GetBookingId(), SeatId: req.GetSeatId(), State: "held"}, nil
}

// forTubes runs fn over the tubes, twenty at a time.
func (s *Server) forTubes(ctx context.Context, ids []string, fn func(context.Context, string) error) error {
	for len(ids) > 0 {
		n := min(len(ids), 20)
		if err := s.eachTube(ctx, ids[:n], fn); err != nil {
			return err
		}
		ids = ids[n:]
	}
	return nil
}

func (s *Server) eachTube(ctx context.Context, ids []string, fn func(context.Context, string) error) error {
	for _, id := range ids {
		if err := fn(ctx, id); err != nil {
			return fmt.Errorf("tube %s: %w", id, err)
		}
	}
	return nil
}

func (s *Server) markQueued(ctx context.Context, id string) error {
	return s.st.Stamp(ctx, id, "queued")
}

// markScanned records the arrival scan of a tube.
func (s *Server) markScanned(ctx context.Context, id string) error {
	return s.st.Stamp(context.Background(), id, "scanned")
}

// ReleaseHold frees the analyzer slot a tube was queued on.
func (s *Server) ReleaseHold(ctx context.Context, req *bookingv1.BookingRequest) (*bookingv1.Booking, error) {
	slot := req.GetSeatId()
	if err := s.apply(ctx, slot, (*Server).unpinSlot); err != nil { // OK: unpinSlot works with the ctx apply hands it
		return nil, err
	}
	if err := s.apply(ctx, slot, (*Server).clearRack); err != nil { // BUG: ctxbackground
		return nil, err
	}
	seatMap := venuev1.VenueServiceClient.GetSeatMap
	if _, err := seatMap(s.benches, ctx, &venuev1.VenueRequest{VenueId: slot}); err != nil { // OK: a method expression of the generated client, given the request ctx
		return nil, err
	}
	return &bookingv1.Booking{Id: req.GetBookingId(), SeatId: slot, State: "released"}, nil
}

// apply runs one step of a slot change and logs it when it fails.
func (s *Server) apply(ctx context.Context, slot string, step func(*Server, context.Context, string) error) error {
	if err := step(s, ctx, slot); err != nil {
		slog.WarnContext(ctx, "slot step failed", "slot", slot, "err", err)
		return err
	}
	return nil
}

func (s *Server) unpinSlot(ctx context.Context, slot string) error {
	_, err := s.db.ExecContext(ctx, `UPDATE analyzer_slots SET specimen_id = NULL WHERE slot = $1`, slot)
	return err
}

func (s *Server) clearRack(_ context.Context, slot string) error {
	_, err := s.db.ExecContext(context.TODO(), `UPDATE rack_positions SET tube = NULL WHERE slot = $1`, slot)
	return err
}

// ExtendHold keeps a tube on its slot for longer, for add-on tests.
func (s *Server) ExtendHold(ctx context.Context, req *bookingv1.BookingRequest) (*bookingv1.Booking, error) {
	extra := time.Duration(req.GetCount()) * time.Hour
	err := s.withSpecimen(ctx, req.GetSeatId(), func(c context.Context, sp *specimens.Specimen) error {
		sp.HoldTill = sp.HoldTill.Add(extra)
		return s.st.Save(c, sp) // OK: the literal saves with the ctx withSpecimen hands it
	})
	if err != nil {
		return nil, err
	}
	err = s.withSpecimen(ctx, req.GetSeatId(), func(c context.Context, sp *specimens.Specimen) error {
		return s.st.Event(context.Background(), sp.ID, "hold-extended") // BUG: ctxbackground
	})
	if err != nil {
		return nil, err
	}
	return &bookingv1.Booking{Id: req.GetBookingId(), SeatId: req.GetSeatId(), State: "held"}, nil
}

// withSpecimen loads a specimen and hands it to fn.
func (s *Server) withSpecimen(ctx context.Context, id string, fn func(context.Context, *specimens.Specimen) error) error {
	sp, err := s.st.Load(ctx, id)
	if err != nil {
		return err
	}
	return fn(ctx, sp)
}

// ConfirmBooking accessions the order: its tubes get lab numbers and their
// slot reservations turn into assignments.
func (s *Server) ConfirmBooking(ctx context.Context, req *bookingv1.BookingRequest) (*bookingv1.Booking, error) {
	id := req.GetBookingId()
	if err := s.inTx(ctx, id, accession); err != nil { // OK: accession writes with the ctx inTx hands it
		return nil, err
	}
	if err := s.inTx(ctx, id, settleReservations); err != nil { // BUG: ctxbackground
		return nil, err
	}
	return &bookingv1.Booking{Id: id, State: "accessioned"}, nil
}

// inTx runs fn in a transaction.
func (s *Server) inTx(ctx context.Context, id string, fn func(context.Context, *sql.Tx, string) error) error {
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	if err := fn(ctx, tx, id); err != nil {
		_ = tx.Rollback()
		return err
	}
	return tx.Commit()
}

func accession(ctx context.Context, tx *sql.Tx, order string) error {
	_, err := tx.ExecContext(ctx,
		`UPDATE specimens SET lab_no = nextval('lab_no'), state = 'accessioned' WHERE order_id = $1`, order)
	return err
}

func settleReservations(_ context.Context, tx *sql.Tx, order string) error {
	_, err := tx.ExecContext(context.Background(),
		`UPDATE slot_reservations SET assigned = true WHERE order_id = $1`, order)
	return err
}

// GetBooking returns an order after re-checking the barcodes of its linked
// tubes.
func (s *Server) GetBooking(ctx context.Context, req *bookingv1.BookingRequest) (*bookingv1.Booking, error) {
	linked := req.GetIds()
	if err := batch.Chunked(ctx, linked, 50, s.verifyLabel); err != nil { // OK: verifyLabel reads with the ctx batch hands it
		return nil, err
	}
	if err := batch.Chunked(ctx, linked, 50, s.relabel); err != nil { // BUG: ctxbackground
		return nil, err
	}
	s.onExpire("results:"+req.GetBookingId(), s.purgeResults) // OK: onExpire only stores the hook; Run calls it
	sp, err := s.st.Load(ctx, req.GetBookingId())
	if err != nil {
		return nil, err
	}
	return &bookingv1.Booking{Id: sp.OrderID, SeatId: sp.Slot, UserId: sp.Patient, State: sp.State}, nil
}

func (s *Server) verifyLabel(ctx context.Context, id string) error {
	sp, err := s.st.Load(ctx, id)
	if err != nil {
		return err
	}
	if sp.State == "" {
		return fmt.Errorf("tube %s has no state", id)
	}
	return nil
}

// relabel reprints the label of a tube whose barcode did not scan.
func (s *Server) relabel(ctx context.Context, id string) error {
	return s.st.Event(context.Background(), id, "relabelled")
}

func (s *Server) purgeResults(ctx context.Context) error {
	_, err := s.db.ExecContext(context.Background(), `DELETE FROM raw_results WHERE expires_at < now()`)
	return err
}
