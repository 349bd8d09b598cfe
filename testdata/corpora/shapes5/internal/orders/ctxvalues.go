package orders

import (
	"context"
	"fmt"
	"log/slog"
	"time"

	bookingv1 "example.test/shapes5/gen/booking/v1"
)

type siteKey struct{}

// lifetime hands out a context that lives as long as something else does.
type lifetime interface {
	Context() context.Context
}

type procLife struct{ ctx context.Context }

func (p procLife) Context() context.Context { return p.ctx }

type repriceJob struct {
	ctx   context.Context
	order string
	code  string
}

// Reprice recomputes an order's price at the tariff of the site that ran it.
func (s *Server) Reprice(ctx context.Context, req *bookingv1.BookingRequest) (*bookingv1.Booking, error) {
	job := &repriceJob{ctx: ctx, order: req.GetBookingId(), code: req.GetPromoCode()}
	cents, err := s.st.Tariff(job.ctx, job.code) // OK: a per-request struct built in the handler carries the request ctx
	if err != nil {
		return nil, err
	}
	sctx, ok := s.siteCtx[req.GetEventId()]
	if !ok {
		return nil, fmt.Errorf("unknown site %q", req.GetEventId())
	}
	if err := s.st.Event(sctx, job.order, fmt.Sprintf("repriced:%d", cents)); err != nil { // BUG: ctxflow
		return nil, err
	}
	return &bookingv1.Booking{Id: job.order, PriceCents: cents, State: "repriced"}, nil
}

// ResultMsg is one analyzer result read from the instrument bus.
type ResultMsg struct {
	Specimen string
	Code     string
	Value    string
}

// ConsumeResults applies analyzer results until ctx ends or msgs closes;
// main starts it.
func (s *Server) ConsumeResults(ctx context.Context, msgs <-chan ResultMsg) {
	for {
		select {
		case <-ctx.Done():
			return
		case m, ok := <-msgs:
			if !ok {
				return
			}
			mctx, cancel := context.WithTimeout(ctx, 30*time.Second)
			if err := s.applyResult(mctx, m); err != nil {
				slog.WarnContext(mctx, "result not applied", "specimen", m.Specimen, "err", err)
			}
			cancel()
		}
	}
}

type resultTrace struct {
	ctx      context.Context
	specimen string
}

func (t *resultTrace) Context() context.Context { return t.ctx }

func (s *Server) tracer(ctx context.Context, specimen string) *resultTrace {
	return &resultTrace{ctx: context.WithValue(ctx, siteKey{}, specimen), specimen: specimen}
}

// applyResult stores one analyzer result and marks its specimen resulted.
//
//deadlinelint:scope
func (s *Server) applyResult(ctx context.Context, m ResultMsg) error {
	tr := s.tracer(ctx, m.Specimen)
	if _, err := s.db.ExecContext(tr.Context(), // OK: the trace hands back the ctx it was built from
		`INSERT INTO results (specimen_id, code, value) VALUES ($1, $2, $3)`, m.Specimen, m.Code, m.Value); err != nil {
		return err
	}
	return s.st.Stamp(s.life.Context(), m.Specimen, "resulted") // BUG: ctxflow
}
