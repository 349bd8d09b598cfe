// Package orders serves the lab order API (booking.v1.BookingService): a
// booking is a lab order, its seat the analyzer slot a tube is queued on, its
// user the patient and its event the clinic visit. Prices come from the
// insurer (payment.v1.PaymentService); the benches (venue.v1.VenueService)
// are the lab's instrument racks.
package orders

import (
	"context"
	"database/sql"
	"log/slog"
	"sync"
	"time"

	"google.golang.org/grpc"

	bookingv1 "example.test/shapes5/gen/booking/v1"
	paymentv1 "example.test/shapes5/gen/payment/v1"
	venuev1 "example.test/shapes5/gen/venue/v1"
	"example.test/shapes5/internal/cachex"
	"example.test/shapes5/internal/specimens"
)

// Server implements bookingv1.BookingServiceServer.
type Server struct {
	bookingv1.UnimplementedBookingServiceServer

	db       *sql.DB
	st       *specimens.Store
	claims   paymentv1.PaymentServiceClient
	claimsDR paymentv1.PaymentServiceClient
	benches  venuev1.VenueServiceClient

	baseCtx context.Context
	life    lifetime
	siteCtx map[string]context.Context

	ins     insurer
	archive archiver
	index   reindexer

	tariffs *cachex.Cache[string, int64]

	onWithdraw func(context.Context, string) error
	onRecall   func(context.Context, string) error

	hooksMu sync.Mutex
	hooks   map[string]func(context.Context) error

	refOnce sync.Once
	refSet  map[string]int64
}

// New builds the server. ctx is the process context: it ends at shutdown.
func New(ctx context.Context, db *sql.DB, claims, claimsDR paymentv1.PaymentServiceClient, benches venuev1.VenueServiceClient, sites []string) *Server {
	st := specimens.New(db)
	s := &Server{
		db:       db,
		st:       st,
		claims:   claims,
		claimsDR: claimsDR,
		benches:  benches,
		baseCtx:  ctx,
		life:     procLife{ctx: ctx},
		siteCtx:  make(map[string]context.Context, len(sites)),
		ins:      &claimsAdapter{c: claims},
		archive:  coldArchive{st: st},
		index:    &slotIndex{st: st},
		hooks:    make(map[string]func(context.Context) error),
	}
	for _, site := range sites {
		s.siteCtx[site] = context.WithValue(ctx, siteKey{}, site)
	}
	s.tariffs = cachex.New(time.Hour, s.st.Tariff)
	s.onWithdraw = s.withdrawLocal
	s.onRecall = s.recallLocal
	if len(sites) > 1 {
		s.archive = warmArchive{st: st}
		s.index = &barcodeIndex{st: st}
	}
	return s
}

// Register registers the server on g.
func Register(g *grpc.Server, s *Server) {
	bookingv1.RegisterBookingServiceServer(g, s)
}

// Run sweeps expired holds and runs the registered expiry hooks until ctx ends.
func (s *Server) Run(ctx context.Context) {
	t := time.NewTicker(time.Minute)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			flush, cancel := context.WithTimeout(context.Background(), 5*time.Second) // OK: Run is a background worker, not a request scope
			s.runHooks(flush)
			cancel()
			return
		case <-t.C:
			s.runHooks(ctx)
		}
	}
}

func (s *Server) runHooks(ctx context.Context) {
	s.hooksMu.Lock()
	hooks := s.hooks
	s.hooks = make(map[string]func(context.Context) error)
	s.hooksMu.Unlock()
	for name, h := range hooks {
		if err := h(ctx); err != nil {
			slog.WarnContext(ctx, "expiry hook failed", "hook", name, "err", err)
		}
	}
}

// onExpire registers fn to run on the next sweep.
func (s *Server) onExpire(name string, fn func(context.Context) error) {
	s.hooksMu.Lock()
	defer s.hooksMu.Unlock()
	s.hooks[name] = fn
}
