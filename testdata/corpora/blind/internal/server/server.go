// Package server implements the order service.
package server

import (
	"context"
	"database/sql"
	"log/slog"
	"sync"
	"time"

	"connectrpc.com/connect"
	inventoryv1 "example.test/blind/gen/inventoryv1"
	notifyv1 "example.test/blind/gen/notifyv1"
	"example.test/blind/gen/notifyv1/notifyv1connect"
	ordersv1 "example.test/blind/gen/ordersv1"
	"example.test/blind/internal/audit"
	"example.test/blind/internal/cache"
	"example.test/blind/internal/httpx"
	"example.test/blind/internal/invclient"
	"example.test/blind/internal/pricing"
	"example.test/blind/internal/repo"
)

// defaultCtx is the context background jobs of this package run under.
var defaultCtx = context.Background() // OK: package level

// Server implements ordersv1.OrderServiceServer.
type Server struct {
	ordersv1.UnimplementedOrderServiceServer

	ctx    context.Context // server lifetime; canceled on shutdown
	cancel context.CancelFunc

	db      *sql.DB
	orders  repo.OrderRepo
	inv     *invclient.Client
	pricer  pricing.Pricer
	risk    *pricing.Risk
	audit   audit.Writer
	notify  notifyv1connect.NotifyServiceClient
	cache   *cache.Cache
	http    *httpx.Client
	log     *slog.Logger
	watches sync.Map

	// lookupCustomer resolves a customer's display name; swapped in tests.
	lookupCustomer func(ctx context.Context, id string) (string, error)
	// now is time.Now, swapped in tests.
	now func() time.Time
}

// Deps are the server's dependencies.
type Deps struct {
	DB     *sql.DB
	Orders repo.OrderRepo
	Inv    *invclient.Client
	HTTP   *httpx.Client
	Audit  audit.Writer
	Notify notifyv1connect.NotifyServiceClient
	Cache  *cache.Cache
	Log    *slog.Logger
}

// New builds a Server and starts its background workers.
func New(d Deps) *Server {
	ctx, cancel := context.WithCancel(context.Background()) // OK: constructor
	s := &Server{
		ctx:    ctx,
		cancel: cancel,
		db:     d.DB,
		orders: d.Orders,
		inv:    d.Inv,
		pricer: &pricing.Catalog{Prices: map[string]int64{}, FX: d.HTTP},
		risk:   &pricing.Risk{FX: d.HTTP},
		audit:  d.Audit,
		notify: d.Notify,
		cache:  d.Cache,
		http:   d.HTTP,
		log:    d.Log,
		now:    time.Now,
	}
	s.lookupCustomer = s.lookupCustomerHTTP
	go s.expireReservations()
	return s
}

// Close stops the background workers.
func (s *Server) Close() error {
	s.cancel()
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Second) // OK: Close
	defer cancel()
	return s.orders.SetStatus(ctx, "__shutdown__", "closed")
}

// lifetime returns the server's lifetime context.
func (s *Server) lifetime() context.Context { return s.ctx }

func (s *Server) expireReservations() {
	t := time.NewTicker(time.Minute)
	defer t.Stop()
	for {
		select {
		case <-s.ctx.Done():
			return
		case <-t.C:
		}
		ctx, cancel := context.WithTimeout(s.ctx, 10*time.Second) // OK: background worker
		_, err := s.db.ExecContext(ctx, `DELETE FROM reservations WHERE expires_at < now()`)
		cancel()
		if err != nil {
			s.log.Error("expire reservations", "err", err)
		}
		time.Sleep(time.Second) // OK: background worker
	}
}

// RunStockSync keeps the local stock cache in step with the inventory
// service until ctx ends.
func (s *Server) RunStockSync(ctx context.Context, skus []string) {
	for ctx.Err() == nil {
		for _, sku := range skus {
			n, err := s.inv.Available(ctx, sku)
			if err != nil {
				s.log.Warn("stock sync", "sku", sku, "err", err)
				continue
			}
			s.cache.Put("stock/"+sku, []byte{byte(n)})
		}
		time.Sleep(30 * time.Second)
	}
}

// InventoryServer implements inventoryv1.InventoryServiceServer (the
// service is still on the old generator).
type InventoryServer struct {
	inventoryv1.UnimplementedInventoryServiceServer
	db  *sql.DB
	ctx context.Context
}

// NewInventoryServer returns an InventoryServer.
func NewInventoryServer(ctx context.Context, db *sql.DB) *InventoryServer {
	return &InventoryServer{db: db, ctx: ctx}
}

// Notifier implements notifyv1connect.NotifyServiceHandler.
type Notifier struct {
	notifyv1connect.UnimplementedNotifyServiceHandler
	http  *httpx.Client
	audit audit.Writer
	tmpl  map[string]string
}

// NewNotifier returns a Notifier.
func NewNotifier(h *httpx.Client, a audit.Writer) *Notifier {
	return &Notifier{http: h, audit: a, tmpl: map[string]string{}}
}

var _ = connect.NewRequest[notifyv1.SendRequest]
