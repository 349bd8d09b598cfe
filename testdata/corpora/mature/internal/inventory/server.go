// Package inventory implements inventory.v1.InventoryService.
package inventory

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"net/url"
	"sync"
	"time"

	"golang.org/x/sync/singleflight"

	inventoryv1 "example.test/mature/gen/inventory/v1"
	"example.test/mature/gen/pricing/v1/pricingv1connect"
	"example.test/mature/internal/audit"
	"example.test/mature/internal/clients/searchclient"
	"example.test/mature/internal/events"
	"example.test/mature/internal/platform/kv"
	"example.test/mature/internal/store"
)

// Config tunes the server. Zero values are replaced by defaults in NewServer.
type Config struct {
	CacheTTL        time.Duration
	PriceTimeout    time.Duration
	PriceAttempts   int
	PollInterval    time.Duration
	ReindexBudget   time.Duration
	ReservationTTL  time.Duration
	ReconcileEvery  time.Duration
	CatalogEvery    time.Duration
	SupplierURL     string
	SupplierPacing  time.Duration
	WarmPacing      time.Duration
	ShutdownTimeout time.Duration
}

func (c *Config) setDefaults() {
	def := func(d *time.Duration, v time.Duration) {
		if *d == 0 {
			*d = v
		}
	}
	def(&c.CacheTTL, 5*time.Minute)
	def(&c.PriceTimeout, 300*time.Millisecond)
	def(&c.PollInterval, 2*time.Second)
	def(&c.ReindexBudget, 30*time.Second)
	def(&c.ReservationTTL, 30*time.Minute)
	def(&c.ReconcileEvery, time.Minute)
	def(&c.CatalogEvery, time.Hour)
	def(&c.SupplierPacing, 200*time.Millisecond)
	def(&c.WarmPacing, 5*time.Millisecond)
	def(&c.ShutdownTimeout, 10*time.Second)
	if c.PriceAttempts == 0 {
		c.PriceAttempts = 3
	}
}

// Deps are the server's collaborators.
type Deps struct {
	Store  *store.Repo
	Audit  *audit.Writer
	Events *events.Publisher
	Search *searchclient.Client
	Prices pricingv1connect.PricingServiceClient
	Cache  *kv.Client
	HTTP   *http.Client
	Log    *slog.Logger
}

// Server implements inventoryv1.InventoryServiceServer.
type Server struct {
	inventoryv1.UnimplementedInventoryServiceServer

	cfg    Config
	store  *store.Repo
	audit  *audit.Writer
	events *events.Publisher
	search *searchclient.Client
	prices pricingv1connect.PricingServiceClient
	cache  *kv.Client
	http   *http.Client
	log    *slog.Logger

	fills singleflight.Group

	// lifetime is cancelled by Close; the background workers run under it.
	lifetime context.Context
	stop     context.CancelFunc
	workers  sync.WaitGroup
}

// NewServer wires a Server. Call Start to run its background workers and
// Close when done.
func NewServer(cfg Config, d Deps) *Server {
	cfg.setDefaults()
	ctx, cancel := context.WithCancel(context.Background()) // OK
	return &Server{
		cfg:      cfg,
		store:    d.Store,
		audit:    d.Audit,
		events:   d.Events,
		search:   d.Search,
		prices:   d.Prices,
		cache:    d.Cache,
		http:     d.HTTP,
		log:      d.Log,
		lifetime: ctx,
		stop:     cancel,
	}
}

// Start runs the reconciler and the catalog refresher until Close.
func (s *Server) Start() {
	s.workers.Add(2)
	go func() {
		defer s.workers.Done()
		s.runReconciler(s.lifetime) // OK
	}()
	go func() {
		defer s.workers.Done()
		s.runCatalogRefresh(s.lifetime) // OK
	}()
}

// Close stops the workers and flushes the event outbox.
func (s *Server) Close() error {
	s.stop()
	s.workers.Wait()
	ctx, cancel := context.WithTimeout(context.Background(), s.cfg.ShutdownTimeout) // OK
	defer cancel()
	if err := s.events.Flush(ctx); err != nil {
		return fmt.Errorf("inventory: flush outbox: %w", err)
	}
	return nil
}

// Warm loads the hottest items into the cache. main calls it once before the
// server starts accepting traffic.
func (s *Server) Warm(ctx context.Context) error {
	skus, err := s.store.HotSKUs(ctx, 500)
	if err != nil {
		return err
	}
	for _, sku := range skus {
		if _, err := s.refreshItem(ctx, &inventoryv1.GetItemRequest{Sku: sku}); err != nil && !errors.Is(err, store.ErrNotFound) {
			s.log.Warn("warm-up: item not cached", "sku", sku, "err", err)
		}
		time.Sleep(s.cfg.WarmPacing) // OK
		if ctx.Err() != nil {
			return ctx.Err()
		}
	}
	return nil
}

// refreshItem reloads one item into the cache unless the cached copy is newer
// than the row.
func (s *Server) refreshItem(ctx context.Context, req *inventoryv1.GetItemRequest) (*inventoryv1.GetItemResponse, error) {
	key := itemKey(req.GetSku())
	it, err := s.store.GetItem(ctx, req.GetSku())
	if err != nil {
		return nil, err
	}
	if b, err := s.cache.Get(key); err == nil { // OK
		if cached, err := decodeItem(b); err == nil && !cached.UpdatedAt.Before(it.UpdatedAt) {
			return &inventoryv1.GetItemResponse{Item: toProto(cached)}, nil
		}
	}
	if b, err := encodeItem(it); err == nil {
		if err := s.cache.SetContext(ctx, key, b, s.cfg.CacheTTL); err != nil {
			s.log.Debug("cache set failed", "sku", it.SKU, "err", err)
		}
	}
	return &inventoryv1.GetItemResponse{Item: toProto(it)}, nil
}

// runReconciler releases reservations that outlived ReservationTTL and
// checks that the search index is keeping up.
func (s *Server) runReconciler(ctx context.Context) {
	t := time.NewTicker(s.cfg.ReconcileEvery)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
		ids, err := s.store.ExpiredReservations(ctx, time.Now().Add(-s.cfg.ReservationTTL)) // OK
		if err != nil {
			s.log.Warn("reconciler: list expired", "err", err)
			continue
		}
		for _, id := range ids {
			if _, err := s.store.Release(ctx, id); err != nil && !errors.Is(err, store.ErrNotFound) {
				s.log.Warn("reconciler: release", "reservation", id, "err", err)
			}
		}
		sctx, cancel := context.WithTimeout(ctx, 5*time.Second)
		st, err := s.search.Stats(sctx) // OK
		cancel()
		if err == nil && st.GetPending() > 10_000 {
			s.log.Warn("search index is lagging", "pending", st.GetPending())
		}
	}
}

// runCatalogRefresh imports the supplier catalog of every warehouse.
func (s *Server) runCatalogRefresh(ctx context.Context) {
	if s.cfg.SupplierURL == "" {
		return
	}
	t := time.NewTicker(s.cfg.CatalogEvery)
	defer t.Stop()
	for {
		warehouses, err := s.store.Warehouses(ctx)
		if err != nil {
			s.log.Warn("catalog refresh: warehouses", "err", err)
		}
		for _, wh := range warehouses {
			resp, err := s.refreshCatalog(ctx, &inventoryv1.RefreshCatalogRequest{Warehouse: wh}) // OK
			if err != nil {
				s.log.Warn("catalog refresh failed", "warehouse", wh, "err", err)
				continue
			}
			s.log.Info("catalog refreshed", "warehouse", wh, "items", resp.GetRefreshed())
		}
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
	}
}

type supplierPage struct {
	Items []struct {
		SKU      string `json:"sku"`
		Name     string `json:"name"`
		Quantity int64  `json:"quantity"`
	} `json:"items"`
	Next string `json:"next"`
}

// refreshCatalog pulls one warehouse's catalog from the supplier, page by page.
func (s *Server) refreshCatalog(ctx context.Context, req *inventoryv1.RefreshCatalogRequest) (*inventoryv1.RefreshCatalogResponse, error) {
	var n int32
	page := ""
	for {
		u := s.cfg.SupplierURL + "/v1/catalog?warehouse=" + url.QueryEscape(req.GetWarehouse()) + "&page=" + url.QueryEscape(page)
		hreq, err := http.NewRequestWithContext(ctx, http.MethodGet, u, nil)
		if err != nil {
			return nil, err
		}
		resp, err := s.http.Do(hreq)
		if err != nil {
			return nil, err
		}
		var p supplierPage
		err = json.NewDecoder(resp.Body).Decode(&p)
		resp.Body.Close()
		if err != nil {
			return nil, fmt.Errorf("supplier page %q: %w", page, err)
		}
		for _, it := range p.Items {
			if err := s.store.UpsertItem(ctx, store.Item{SKU: it.SKU, Name: it.Name, Warehouse: req.GetWarehouse(), Quantity: it.Quantity}); err != nil {
				return nil, err
			}
			n++
		}
		if p.Next == "" {
			return &inventoryv1.RefreshCatalogResponse{Refreshed: n}, nil
		}
		page = p.Next
		time.Sleep(s.cfg.SupplierPacing) // OK
	}
}
