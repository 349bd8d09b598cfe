// Package booking implements booking.v1.BookingService.
package booking

import (
	"context"
	"database/sql"

	"google.golang.org/grpc"

	bookingv1 "example.test/shapes2/gen/booking/v1"
	paymentv1 "example.test/shapes2/gen/payment/v1"
	"example.test/shapes2/internal/gx"
	"example.test/shapes2/internal/store"
)

// Server is the booking service.
type Server struct {
	bookingv1.UnimplementedBookingServiceServer

	store   *store.Store
	db      *sql.DB
	pay     paymentv1.PaymentServiceClient
	charges charger
	refunds refunder
	voids   voider
	holds   *gx.Cache[string, store.Booking]
	baseCtx context.Context
}

// New builds the server; baseCtx is the process's lifetime context.
func New(baseCtx context.Context, st *store.Store, db *sql.DB, pay paymentv1.PaymentServiceClient) *Server {
	return &Server{
		store:   st,
		db:      db,
		pay:     pay,
		charges: payAdapter{c: pay},
		refunds: refundAdapter{c: pay},
		voids:   &voidAdapter{c: pay},
		holds:   gx.NewCache[string, store.Booking](),
		baseCtx: baseCtx,
	}
}

// Register registers the service.
func (s *Server) Register(g *grpc.Server) {
	bookingv1.RegisterBookingServiceServer(g, s)
}

func toProto(b store.Booking) *bookingv1.Booking {
	return &bookingv1.Booking{Id: b.ID, SeatId: b.SeatID, UserId: b.UserID, EventId: b.EventID, State: b.State, PriceCents: b.PriceCents}
}
