package orders

import (
	"context"
	"fmt"
	"time"

	bookingv1 "example.test/shapes5/gen/booking/v1"
	"example.test/shapes5/internal/retryx"
	"example.test/shapes5/internal/specimens"
)

// QuotePrice quotes an order's panel at today's tariffs.
func (s *Server) QuotePrice(ctx context.Context, req *bookingv1.BookingRequest) (*bookingv1.Booking, error) {
	active, err := retryx.Do(ctx, 3, s.activePanels) // OK: activePanels reads with the ctx Do hands it
	if err != nil {
		return nil, err
	}
	retired, err := retryx.Do(ctx, 3, s.retiredPanels) // BUG: ctxbackground
	if err != nil {
		return nil, err
	}
	s.refOnce.Do(func() {
		ictx, cancel := context.WithTimeout(context.Background(), 10*time.Second) // OK: one-time initialisation under sync.Once
		defer cancel()
		s.refSet, _ = s.referenceRanges(ictx)
	})
	code := req.GetPromoCode()
	if retired[code] {
		return nil, fmt.Errorf("panel %s is retired", code)
	}
	if !active[code] {
		return nil, fmt.Errorf("unknown panel %s", code)
	}
	cents, err := s.tariffs.Get(ctx, code) // OK: the cache's loader is s.st.Tariff, which reads with its ctx
	if err != nil {
		return nil, err
	}
	return &bookingv1.Booking{Id: req.GetBookingId(), PriceCents: cents, State: "quoted"}, nil
}

func (s *Server) activePanels(ctx context.Context) (map[string]bool, error) {
	return s.panelSet(ctx, false)
}

func (s *Server) retiredPanels(_ context.Context) (map[string]bool, error) {
	return s.panelSet(context.Background(), true)
}

func (s *Server) referenceRanges(ctx context.Context) (map[string]int64, error) {
	rows, err := s.db.QueryContext(ctx, `SELECT code, upper_limit FROM reference_ranges`)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	out := make(map[string]int64)
	for rows.Next() {
		var code string
		var limit int64
		if err := rows.Scan(&code, &limit); err != nil {
			return nil, err
		}
		out[code] = limit
	}
	return out, rows.Err()
}

func (s *Server) panelSet(ctx context.Context, retired bool) (map[string]bool, error) {
	rows, err := s.db.QueryContext(ctx, `SELECT code FROM panels WHERE retired = $1`, retired)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	set := make(map[string]bool)
	for rows.Next() {
		var code string
		if err := rows.Scan(&code); err != nil {
			return nil, err
		}
		set[code] = true
	}
	return set, rows.Err()
}

type slotCounter interface {
	CountFree(ctx context.Context, analyzer string) (int, error)
}

type liveSlots struct{ st *specimens.Store }

func (l liveSlots) CountFree(ctx context.Context, analyzer string) (int, error) {
	free, err := l.st.FreeSlots(ctx, analyzer)
	return len(free), err
}

func totalFree[C slotCounter](ctx context.Context, c C, analyzers []string) (int, error) {
	total := 0
	for _, a := range analyzers {
		n, err := c.CountFree(ctx, a)
		if err != nil {
			return 0, err
		}
		total += n
	}
	return total, nil
}

// batchOf collects items and runs them in one go.
type batchOf[T any] struct {
	items []T
	run   func(context.Context, T) error
}

func newBatch[T any](run func(context.Context, T) error) *batchOf[T] {
	return &batchOf[T]{run: run}
}

func (b *batchOf[T]) add(v T) { b.items = append(b.items, v) }

func (b *batchOf[T]) flush(ctx context.Context) error {
	for _, v := range b.items {
		if err := b.run(ctx, v); err != nil {
			return err
		}
	}
	b.items = b.items[:0]
	return nil
}

// CountAvailable counts the free slots over the requested analyzers.
func (s *Server) CountAvailable(ctx context.Context, req *bookingv1.BookingRequest) (*bookingv1.BookingList, error) {
	analyzers := req.GetIds()
	n, err := totalFree(ctx, liveSlots{st: s.st}, analyzers) // OK: the one slotCounter passes its ctx on
	if err != nil {
		return nil, err
	}
	seen := newBatch(s.noteCounted)
	tally := newBatch(s.recordTally)
	for _, a := range analyzers {
		seen.add(a)
		tally.add(a)
	}
	if err := seen.flush(ctx); err != nil { // OK: noteCounted writes with the ctx flush hands it
		return nil, err
	}
	if err := tally.flush(ctx); err != nil { // BUG: ctxbackground
		return nil, err
	}
	return &bookingv1.BookingList{Total: int32(n)}, nil
}

func (s *Server) noteCounted(ctx context.Context, analyzer string) error {
	return s.st.Event(ctx, analyzer, "counted")
}

func (s *Server) recordTally(ctx context.Context, analyzer string) error {
	_, err := s.db.ExecContext(context.Background(),
		`INSERT INTO slot_tallies (analyzer, at) VALUES ($1, now())`, analyzer)
	return err
}
