package rides

import (
	"context"
	"errors"
	"fmt"

	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	bookingv1 "example.test/shapes4/gen/booking/v1"
	venuev1 "example.test/shapes4/gen/venue/v1"
	"example.test/shapes4/internal/gx"
	"example.test/shapes4/internal/tripstore"
)

// GetBooking reads a booking through the ride cache.
func (s *Server) GetBooking(ctx context.Context, req *bookingv1.BookingRequest) (*bookingv1.Booking, error) {
	r, err := s.rides.Get(ctx, req.GetBookingId()) // OK: the cache's loader is s.st.Load, which works with the ctx it is given
	if errors.Is(err, tripstore.ErrNotFound) {
		return nil, status.Error(codes.NotFound, "no such booking")
	}
	if err != nil {
		return nil, err
	}
	return toProto(r), nil
}

// QuotePrice returns the fare of a booking, read through the fare cache.
func (s *Server) QuotePrice(ctx context.Context, req *bookingv1.BookingRequest) (*bookingv1.Booking, error) {
	cents, err := s.fareQ.Get(ctx, req.GetBookingId()) // BUG: ctxbackground
	if err != nil {
		return nil, err
	}
	return &bookingv1.Booking{Id: req.GetBookingId(), PriceCents: cents}, nil
}

// fareFromReplica is the loader of the fare cache: fares change rarely, so the read replica
// is good enough.
func (s *Server) fareFromReplica(_ context.Context, id string) (int64, error) {
	r, err := s.st.Load(context.Background(), id)
	return r.FareCents, err
}

// bayLister is what the seat check needs from the zone service.
type bayLister interface {
	freeBays(ctx context.Context, zoneID string) (int, error)
}

// enoughBays reports whether every zone has at least n free bays.
func enoughBays[L bayLister](ctx context.Context, l L, zones []string, n int) (bool, error) {
	for _, z := range zones {
		free, err := l.freeBays(ctx, z)
		if err != nil {
			return false, err
		}
		if free < n {
			return false, nil
		}
	}
	return true, nil
}

// ExtendHold extends the holds of several bookings while the pickup zones still have room.
func (s *Server) ExtendHold(ctx context.Context, req *bookingv1.BookingRequest) (*bookingv1.Booking, error) {
	ok, err := enoughBays(ctx, s.bays, []string{req.GetEventId()}, len(req.GetIds())) // OK: instantiated with zoneAdapter, which passes its ctx on
	if err != nil {
		return nil, err
	}
	if !ok {
		return nil, status.Error(codes.ResourceExhausted, "pickup zone full")
	}
	extended, err := gx.Map(ctx, req.GetIds(), s.extendOne) // OK: the method value works with the ctx gx.Map hands it
	if err != nil {
		return nil, err
	}
	return &bookingv1.Booking{Id: req.GetBookingId(), State: fmt.Sprintf("extended %d", len(extended))}, nil
}

func (s *Server) extendOne(ctx context.Context, id string) (tripstore.Ride, error) {
	if err := s.st.SetState(ctx, id, "held"); err != nil {
		return tripstore.Ride{}, err
	}
	return s.st.Load(ctx, id)
}

// ApplyPromo applies a promo code to every booking of a group.
func (s *Server) ApplyPromo(ctx context.Context, req *bookingv1.BookingRequest) (*bookingv1.Booking, error) {
	s.tariffOnce.Do(func() {
		s.tariff = s.loadTariff(context.Background()) // OK: one-time initialisation under sync.Once
	})
	discount, ok := s.tariff[req.GetPromoCode()]
	if !ok {
		return nil, status.Error(codes.InvalidArgument, "unknown promo code")
	}
	rides, err := gx.Map(ctx, req.GetIds(), s.promoFromArchive) // BUG: ctxbackground
	if err != nil {
		return nil, err
	}
	var total int64
	for _, r := range rides {
		r.FareCents = max(0, r.FareCents-discount)
		if err := s.st.Save(ctx, r); err != nil {
			return nil, err
		}
		total += r.FareCents
	}
	return &bookingv1.Booking{Id: req.GetBookingId(), PriceCents: total}, nil
}

// promoFromArchive reads a ride as it was booked, from the archive.
func (s *Server) promoFromArchive(_ context.Context, id string) (tripstore.Ride, error) {
	return s.st.Load(context.TODO(), "archive:"+id)
}

func (s *Server) loadTariff(ctx context.Context) map[string]int64 {
	out := map[string]int64{}
	rows, err := s.db.QueryContext(ctx, `SELECT code, discount_cents FROM promos WHERE active`)
	if err != nil {
		return out
	}
	defer rows.Close()
	for rows.Next() {
		var code string
		var cents int64
		if rows.Scan(&code, &cents) == nil {
			out[code] = cents
		}
	}
	return out
}

// zoneAdapter adapts the generated VenueService client (the depot service, downstream) to
// what the booking handlers need.
type zoneAdapter struct{ c venuev1.VenueServiceClient }

func (z zoneAdapter) freeBays(ctx context.Context, zoneID string) (int, error) {
	m, err := z.c.GetSeatMap(ctx, &venuev1.VenueRequest{VenueId: zoneID})
	if err != nil {
		return 0, err
	}
	free := 0
	for _, b := range m.GetSeats() {
		if b.GetState() == "free" {
			free++
		}
	}
	return free, nil
}
