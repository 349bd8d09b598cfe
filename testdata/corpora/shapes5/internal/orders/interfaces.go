package orders

import (
	"context"
	"fmt"

	bookingv1 "example.test/shapes5/gen/booking/v1"
	paymentv1 "example.test/shapes5/gen/payment/v1"
	"example.test/shapes5/internal/specimens"
)

// insurer is what the order API needs from the insurer's claims service.
type insurer interface {
	Preauth(ctx context.Context, order string, cents int64) error
	Void(ctx context.Context, order string) error
}

type claimsAdapter struct {
	c paymentv1.PaymentServiceClient
}

func (a *claimsAdapter) Preauth(ctx context.Context, order string, cents int64) error {
	_, err := a.c.Authorize(ctx, &paymentv1.PaymentRequest{BookingId: order, AmountCents: cents})
	return err
}

func (a *claimsAdapter) Void(_ context.Context, order string) error {
	_, err := a.c.Void(context.Background(), &paymentv1.PaymentRequest{BookingId: order}) // BUG: missingdeadline
	return err
}

// archiver keeps the final record of a closed order.
type archiver interface {
	Put(ctx context.Context, order string, body []byte) error
}

type coldArchive struct{ st *specimens.Store }

func (c coldArchive) Put(_ context.Context, order string, body []byte) error {
	return c.st.Event(context.Background(), order, fmt.Sprintf("archived-cold:%d", len(body)))
}

type warmArchive struct{ st *specimens.Store }

func (w warmArchive) Put(ctx context.Context, order string, body []byte) error {
	return w.st.Event(ctx, order, fmt.Sprintf("archived-warm:%d", len(body)))
}

// reindexer refreshes the lookup rows of an order.
type reindexer interface {
	Reindex(ctx context.Context, order string) error
}

type slotIndex struct{ st *specimens.Store }

func (x *slotIndex) Reindex(_ context.Context, order string) error {
	return reindexRows(x.st, "slot", order)
}

type barcodeIndex struct{ st *specimens.Store }

func (x *barcodeIndex) Reindex(_ context.Context, order string) error {
	return reindexRows(x.st, "barcode", order)
}

func reindexRows(st *specimens.Store, kind, order string) error {
	return st.Event(context.Background(), order, "reindexed:"+kind)
}

// VoidBooking voids an order's claim with the insurer, re-authorises the
// tests already run, and archives the order.
func (s *Server) VoidBooking(ctx context.Context, req *bookingv1.BookingRequest) (*bookingv1.Booking, error) {
	order := req.GetBookingId()
	if err := s.ins.Void(ctx, order); err != nil {
		return nil, err
	}
	if ran := int64(req.GetCount()); ran > 0 {
		if err := s.ins.Preauth(ctx, order, ran*1500); err != nil { // OK: the adapter's Preauth passes the request ctx to the RPC
			return nil, err
		}
	}
	body := []byte(order + ":void")
	if err := s.archive.Put(ctx, order, body); err != nil { // OK: one of the two archivers (warmArchive) passes its ctx on
		return nil, err
	}
	if err := s.index.Reindex(ctx, order); err != nil { // BUG: ctxbackground
		return nil, err
	}
	return &bookingv1.Booking{Id: order, State: "void"}, nil
}
