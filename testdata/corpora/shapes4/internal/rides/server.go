// Package rides serves booking.v1.BookingService: seats on shared shuttle trips, held while the
// rider pays and confirmed once the fare is captured.
package rides

import (
	"context"
	"database/sql"
	"log/slog"
	"sync"
	"time"

	"google.golang.org/grpc"

	bookingv1 "example.test/shapes4/gen/booking/v1"
	paymentv1 "example.test/shapes4/gen/payment/v1"
	venuev1 "example.test/shapes4/gen/venue/v1"
	"example.test/shapes4/internal/gx"
	"example.test/shapes4/internal/tripstore"
)

// Server implements bookingv1.BookingServiceServer.
type Server struct {
	bookingv1.UnimplementedBookingServiceServer

	st      *tripstore.Store
	db      *sql.DB
	pay     paymentv1.PaymentServiceClient
	payDR   paymentv1.PaymentServiceClient
	zones   venuev1.VenueServiceClient
	fares   fareGateway
	bays    zoneAdapter
	log     *slog.Logger
	baseCtx context.Context

	rides *gx.Cache[string, tripstore.Ride]
	fareQ *gx.Cache[string, int64]

	onCancel  func(context.Context, string) error
	onConfirm func(context.Context, string) error

	tariffOnce sync.Once
	tariff     map[string]int64
}

// Deps are the server's collaborators.
type Deps struct {
	Store    *tripstore.Store
	Payments paymentv1.PaymentServiceClient
	// PaymentsDR is the disaster-recovery region of the fare provider, tried when the
	// primary is unavailable.
	PaymentsDR paymentv1.PaymentServiceClient
	Zones      venuev1.VenueServiceClient
	Log        *slog.Logger
}

// New builds the server. ctx is the process context: it ends when the server shuts down.
func New(ctx context.Context, d Deps) *Server {
	s := &Server{
		st:      d.Store,
		db:      d.Store.DB(),
		pay:     d.Payments,
		payDR:   d.PaymentsDR,
		zones:   d.Zones,
		fares:   payAdapter{c: d.Payments},
		bays:    zoneAdapter{c: d.Zones},
		log:     d.Log,
		baseCtx: ctx,
	}
	s.rides = gx.NewCache(30*time.Second, s.st.Load)
	s.fareQ = gx.NewCache(5*time.Minute, s.fareFromReplica)
	s.onCancel = s.publishCancel
	s.onConfirm = s.publishConfirm
	return s
}

// Register registers the server on g.
func Register(g *grpc.Server, s *Server) {
	bookingv1.RegisterBookingServiceServer(g, s)
}

// Run expires stale holds until ctx is done. It is the server's background sweeper.
func (s *Server) Run(ctx context.Context) error {
	t := time.NewTicker(time.Minute)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-t.C:
		}
		sweep, cancel := context.WithTimeout(context.Background(), 30*time.Second) // OK: a background worker, not a request scope
		for r, err := range s.st.Expired(sweep, time.Now().Add(-15*time.Minute)) {
			if err != nil {
				s.log.Warn("sweep", "err", err)
				break
			}
			_ = s.st.SetState(sweep, r.ID, "expired")
		}
		cancel()
	}
}

func toProto(r tripstore.Ride) *bookingv1.Booking {
	return &bookingv1.Booking{
		Id:         r.ID,
		SeatId:     r.SeatID,
		UserId:     r.RiderID,
		EventId:    r.TripID,
		State:      r.State,
		PriceCents: r.FareCents,
	}
}
