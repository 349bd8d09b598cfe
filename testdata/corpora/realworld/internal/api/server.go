// Package api implements the OrdersService gRPC API.
package api

import (
	"bytes"
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"net/http"
	"time"

	"github.com/segmentio/kafka-go"
	"go.uber.org/zap"

	ordersv1 "example.test/realworld/gen/orders/v1"
	"example.test/realworld/internal/cache"
	"example.test/realworld/internal/clients"
	"example.test/realworld/internal/events"
	"example.test/realworld/internal/store"
	"example.test/realworld/internal/telemetry"
)

// OrderStore is the repository the handlers use; *store.Repo implements it.
type OrderStore interface {
	CreateOrder(ctx context.Context, o *store.Order, evt store.OutboxEvent) error
	GetOrder(ctx context.Context, id string) (*store.Order, error)
	ListOrders(ctx context.Context, customerID string, limit int, after string) ([]store.Order, string, error)
	UpdateStatus(ctx context.Context, id string, from []store.Status, to store.Status, evt store.OutboxEvent) (*store.Order, error)
	SetPayment(ctx context.Context, orderID, paymentID string) error
	RecordShipment(ctx context.Context, orderID, carrier, tracking string) error
	MarkRefunded(ctx context.Context, orderID, refundID string, amountCents int64, evt store.OutboxEvent) (*store.Order, error)
	OrdersWithSKU(ctx context.Context, sku string, statuses ...store.Status) ([]string, error)
	ExpiredReservations(ctx context.Context, cutoff time.Time, limit int) ([]store.Reservation, error)
	ClearReservation(ctx context.Context, orderID string) error
	AppendAudit(ctx context.Context, e store.AuditEntry) error
}

var _ OrderStore = (*store.Repo)(nil)

// Config holds the knobs of the API.
type Config struct {
	PaymentTimeout     time.Duration // budget for an authorization at checkout
	PrimaryReadTimeout time.Duration // budget for a consistent read
	InventoryTimeout   time.Duration // budget for a stock check while editing a cart
	PollInterval       time.Duration // WatchOrder polling interval without Redis
	ReservationTTL     time.Duration // unpaid orders release their stock after this
	WebhookTimeout     time.Duration
	MerchantWebhookURL string
	CarrierURL         string
	LegacyRatesURL     string
	InvoiceRenderer    string // path of the HTML to PDF renderer
	PDFOptimizer       string
	KafkaBroker        string
}

// Deps are the collaborators of the server, built by main.
type Deps struct {
	Orders    OrderStore
	Cache     *cache.Cache
	Events    *events.Publisher
	Relay     *events.Relay
	Payments  *clients.Payments
	Inventory *clients.Inventory
	Rates     *clients.ShippingRates
	Legacy    *sql.DB
	Dialer    *kafka.Dialer
	HTTP      *http.Client
	Log       *zap.Logger
}

// Server implements ordersv1.OrdersServiceServer.
type Server struct {
	ordersv1.UnimplementedOrdersServiceServer

	baseCtx   context.Context // the process context; done on shutdown
	orders    OrderStore
	cache     *cache.Cache
	events    *events.Publisher
	relay     *events.Relay
	payments  *clients.Payments
	inventory *clients.Inventory
	rates     *clients.ShippingRates
	legacy    *sql.DB
	dialer    *kafka.Dialer
	http      *http.Client
	notify    func(ctx context.Context, o *store.Order, kind string) error
	log       *zap.Logger
	cfg       Config
}

// warmCtx bounds the cache warm-ups started by reads; Close cancels it.
var warmCtx, stopWarm = context.WithCancel(context.Background()) // OK

// NewServer returns the API server. ctx is the process context.
func NewServer(ctx context.Context, d Deps, cfg Config) *Server {
	if d.HTTP == nil {
		d.HTTP = &http.Client{Timeout: 15 * time.Second}
	}
	if d.Dialer == nil {
		d.Dialer = &kafka.Dialer{Timeout: 5 * time.Second}
	}
	s := &Server{
		baseCtx:   ctx, // OK
		orders:    d.Orders,
		cache:     d.Cache,
		events:    d.Events,
		relay:     d.Relay,
		payments:  d.Payments,
		inventory: d.Inventory,
		rates:     d.Rates,
		legacy:    d.Legacy,
		dialer:    d.Dialer,
		http:      d.HTTP,
		log:       d.Log.Named("api"),
		cfg:       cfg,
	}
	s.notify = s.postMerchantWebhook
	return s
}

// Close stops the background work of the server. Call it after the gRPC
// server has stopped.
func (s *Server) Close() error {
	stopWarm()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second) // OK
	defer cancel()
	// Announce that this replica is gone so the ops dashboard drops it.
	return s.cache.Publish(ctx, "orders:replicas", []byte("down"))
}

// opCtx is the context of operator-triggered maintenance work.
func (s *Server) opCtx() context.Context {
	return s.baseCtx
}

// warmHistory loads the recent orders of a customer into the cache.
func (s *Server) warmHistory(ctx context.Context, customerID string) {
	ctx, cancel := context.WithTimeout(ctx, 2*time.Second)
	defer cancel()
	orders, _, err := s.orders.ListOrders(ctx, customerID, 20, "")
	if err != nil {
		s.log.Debug("warm history", zap.String("customer_id", customerID), zap.Error(err))
		return
	}
	for i := range orders {
		if err := s.cache.PutOrder(ctx, &orders[i]); err != nil {
			return
		}
	}
}

// postMerchantWebhook tells the merchant's backend about an order change.
func (s *Server) postMerchantWebhook(ctx context.Context, o *store.Order, kind string) error {
	_, span := telemetry.Start(ctx, "webhook.merchant")
	defer span.End()
	if s.cfg.MerchantWebhookURL == "" {
		return nil
	}
	body, err := json.Marshal(map[string]any{"kind": kind, "order_id": o.ID, "status": o.Status})
	if err != nil {
		return err
	}
	wctx, cancel := context.WithTimeout(context.Background(), s.cfg.WebhookTimeout)
	defer cancel()
	req, err := http.NewRequestWithContext(wctx, http.MethodPost, s.cfg.MerchantWebhookURL, bytes.NewReader(body))
	if err != nil {
		return err
	}
	req.Header.Set("Content-Type", "application/json")
	resp, err := s.http.Do(req)
	if err != nil {
		return fmt.Errorf("merchant webhook: %w", err)
	}
	defer resp.Body.Close()
	if resp.StatusCode >= 300 {
		return fmt.Errorf("merchant webhook: %s", resp.Status)
	}
	return nil
}

// RunReservationSweeper releases the stock of orders that were never paid.
// main runs it for the lifetime of the process.
func (s *Server) RunReservationSweeper(ctx context.Context, every time.Duration) {
	t := time.NewTicker(every)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
		stale, err := s.orders.ExpiredReservations(ctx, time.Now().Add(-s.cfg.ReservationTTL), 100)
		if err != nil {
			s.log.Warn("list expired reservations", zap.Error(err))
			continue
		}
		for _, r := range stale {
			if err := s.inventory.Release(ctx, r.ReservationID); err != nil {
				s.log.Warn("release reservation", zap.String("order_id", r.OrderID), zap.Error(err))
				continue
			}
			if err := s.orders.ClearReservation(ctx, r.OrderID); err != nil {
				s.log.Warn("clear reservation", zap.String("order_id", r.OrderID), zap.Error(err))
			}
		}
	}
}
