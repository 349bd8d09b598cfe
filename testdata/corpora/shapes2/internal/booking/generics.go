package booking

import (
	"context"
	"time"

	bookingv1 "example.test/shapes2/gen/booking/v1"
	"example.test/shapes2/internal/gx"
	"example.test/shapes2/internal/store"
)

// firstOk returns the first result of fns that succeeds, each called with ctx.
func firstOk[T any](ctx context.Context, fns ...func(context.Context) (T, error)) (T, error) {
	var (
		v   T
		err error
	)
	for _, fn := range fns {
		if v, err = fn(ctx); err == nil {
			return v, nil
		}
	}
	return v, err
}

// must runs fn and ignores its error.
func must[T any](fn func(context.Context) (T, error)) T {
	v, _ := fn(context.Background())
	return v
}

// Lister is constrained by a ctx-taking method.
type lister[T any] interface {
	Seats(ctx context.Context, eventID string, page int) ([]T, error)
}

func countSeats[T any, L lister[T]](ctx context.Context, l L, eventID string) int {
	seats, _ := l.Seats(ctx, eventID, 0)
	return len(seats)
}

func countSeatsCached[T any, L lister[T]](l L, eventID string) int {
	seats, _ := l.Seats(context.Background(), eventID, 0)
	return len(seats)
}

// GetBooking loads a booking with retries.
func (s *Server) GetBooking(ctx context.Context, req *bookingv1.BookingRequest) (*bookingv1.Booking, error) {
	b, err := gx.Retry(ctx, 3, func(ctx context.Context) (store.Booking, error) { // OK
		return s.store.Load(ctx, req.GetBookingId())
	})
	if err != nil {
		return nil, err
	}
	return toProto(b), nil
}

// QuotePrice prices a seat; the pricing call is detached by the generic helper.
func (s *Server) QuotePrice(ctx context.Context, req *bookingv1.BookingRequest) (*bookingv1.Booking, error) {
	b, err := gx.Bounded(ctx, time.Second, func(ctx context.Context) (store.Booking, error) { // OK
		return s.store.Load(ctx, req.GetBookingId())
	})
	if err != nil {
		return nil, err
	}
	price, err := gx.Detached(ctx, func(ctx context.Context) (int64, error) { // BUG: ctxbackground
		return s.store.Promo(ctx, "base:"+b.SeatID)
	})
	if err != nil {
		return nil, err
	}
	b.PriceCents = price
	return toProto(b), nil
}

// ExtendHold reloads the hold through the generic cache.
func (s *Server) ExtendHold(ctx context.Context, req *bookingv1.BookingRequest) (*bookingv1.Booking, error) {
	b, err := s.holds.GetOrLoad(ctx, req.GetBookingId(), s.store.Load) // OK
	if err != nil {
		return nil, err
	}
	if err := s.holds.Refresh(b.ID, s.store.Load); err != nil { // BUG: ctxbackground
		return nil, err
	}
	return toProto(b), nil
}

// ListBookings loads several bookings through a type parameter constrained by Loader.
func (s *Server) ListBookings(ctx context.Context, req *bookingv1.BookingRequest) (*bookingv1.BookingList, error) {
	bs, err := gx.LoadAll[store.Booking](ctx, s.store, req.GetIds()) // OK
	if err != nil {
		return nil, err
	}
	warmed := gx.Warm[store.Booking](s.store, req.GetIds()) // BUG: ctxbackground
	out := &bookingv1.BookingList{Total: int32(warmed)}
	for _, b := range bs {
		out.Bookings = append(out.Bookings, toProto(b))
	}
	return out, nil
}

// ApplyPromo looks the promo code up.
func (s *Server) ApplyPromo(ctx context.Context, req *bookingv1.BookingRequest) (*bookingv1.Booking, error) {
	off, err := firstOk(ctx, // OK
		func(ctx context.Context) (int64, error) { return s.store.Promo(ctx, req.GetPromoCode()) },
		func(ctx context.Context) (int64, error) { return s.store.Promo(ctx, "default") },
	)
	if err != nil {
		return nil, err
	}
	floor := must(func(ctx context.Context) (int64, error) { return s.store.Promo(ctx, "floor") }) // BUG: ctxbackground
	if off < floor {
		off = floor
	}
	return &bookingv1.Booking{Id: req.GetBookingId(), PriceCents: -off}, nil
}

// CountAvailable counts seats through a type parameter, then pages through them.
func (s *Server) CountAvailable(ctx context.Context, req *bookingv1.BookingRequest) (*bookingv1.BookingList, error) {
	n := countSeats[store.Seat](ctx, s.store, req.GetEventId())       // OK
	cached := countSeatsCached[store.Seat](s.store, req.GetEventId()) // BUG: ctxbackground
	total, err := s.countPages(ctx, req.GetEventId())
	if err != nil {
		return nil, err
	}
	return &bookingv1.BookingList{Total: int32(n + cached + total)}, nil
}
