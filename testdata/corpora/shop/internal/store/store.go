// Package store defines persistence for the shop and an in-memory implementation.
package store

import (
	"context"
	"errors"
	"slices"
	"sync"
	"time"
)

var (
	ErrNotFound          = errors.New("not found")
	ErrInsufficientStock = errors.New("insufficient stock")
)

type Product struct {
	SKU        string
	Name       string
	Category   string
	PriceCents int64
	Stock      int32
}

type LineItem struct {
	SKU string
	Qty int32
}

type Order struct {
	ID             string
	CustomerID     string
	Items          []LineItem
	Status         string
	TotalCents     int64
	IdempotencyKey string
	CreatedAt      time.Time
}

type OrderEvent struct {
	OrderID    string
	CustomerID string
	Status     string
	At         time.Time
}

type AuditEvent struct {
	Actor  string
	Action string
	Ref    string
	At     time.Time
}

type Catalog interface {
	GetProduct(ctx context.Context, sku string) (Product, error)
	ListProducts(ctx context.Context, category string, fn func(Product) error) error
	AllProducts(ctx context.Context) ([]Product, error)
}

type Orders interface {
	CreateOrder(ctx context.Context, o Order) error
	GetOrder(ctx context.Context, id string) (Order, error)
	FindByIdempotencyKey(ctx context.Context, key string) (Order, bool, error)
	ReserveStock(ctx context.Context, items []LineItem) error
	ReleaseStock(ctx context.Context, items []LineItem) error
	SaveAudit(ctx context.Context, evs []AuditEvent) error
}

type Store interface {
	Catalog
	Orders
	Ping(ctx context.Context) error
	Close() error
}

// Memory is a Store for tests and local development. It never blocks, so it
// only checks ctx at the boundary.
type Memory struct {
	mu       sync.RWMutex
	products map[string]Product
	orders   map[string]Order
	audit    []AuditEvent
}

func NewMemory(seed []Product) *Memory {
	m := &Memory{products: map[string]Product{}, orders: map[string]Order{}}
	for _, p := range seed {
		m.products[p.SKU] = p
	}
	return m
}

func (m *Memory) GetProduct(ctx context.Context, sku string) (Product, error) {
	if err := ctx.Err(); err != nil {
		return Product{}, err
	}
	m.mu.RLock()
	defer m.mu.RUnlock()
	p, ok := m.products[sku]
	if !ok {
		return Product{}, ErrNotFound
	}
	return p, nil
}

func (m *Memory) ListProducts(ctx context.Context, category string, fn func(Product) error) error {
	m.mu.RLock()
	ps := make([]Product, 0, len(m.products))
	for _, p := range m.products {
		if category == "" || p.Category == category {
			ps = append(ps, p)
		}
	}
	m.mu.RUnlock()
	slices.SortFunc(ps, func(a, b Product) int { return compare(a.SKU, b.SKU) })
	for _, p := range ps {
		if err := ctx.Err(); err != nil {
			return err
		}
		if err := fn(p); err != nil {
			return err
		}
	}
	return nil
}

func compare(a, b string) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

func (m *Memory) AllProducts(_ context.Context) ([]Product, error) {
	m.mu.RLock()
	defer m.mu.RUnlock()
	out := make([]Product, 0, len(m.products))
	for _, p := range m.products {
		out = append(out, p)
	}
	return out, nil
}

func (m *Memory) CreateOrder(_ context.Context, o Order) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.orders[o.ID] = o
	return nil
}

func (m *Memory) GetOrder(_ context.Context, id string) (Order, error) {
	m.mu.RLock()
	defer m.mu.RUnlock()
	o, ok := m.orders[id]
	if !ok {
		return Order{}, ErrNotFound
	}
	return o, nil
}

func (m *Memory) FindByIdempotencyKey(_ context.Context, key string) (Order, bool, error) {
	m.mu.RLock()
	defer m.mu.RUnlock()
	for _, o := range m.orders {
		if o.IdempotencyKey == key {
			return o, true, nil
		}
	}
	return Order{}, false, nil
}

func (m *Memory) ReserveStock(_ context.Context, items []LineItem) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	for _, it := range items {
		if m.products[it.SKU].Stock < it.Qty {
			return ErrInsufficientStock
		}
	}
	for _, it := range items {
		p := m.products[it.SKU]
		p.Stock -= it.Qty
		m.products[it.SKU] = p
	}
	return nil
}

func (m *Memory) ReleaseStock(_ context.Context, items []LineItem) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	for _, it := range items {
		p := m.products[it.SKU]
		p.Stock += it.Qty
		m.products[it.SKU] = p
	}
	return nil
}

func (m *Memory) SaveAudit(_ context.Context, evs []AuditEvent) error {
	m.mu.Lock()
	m.audit = append(m.audit, evs...)
	m.mu.Unlock()
	return nil
}

func (m *Memory) Ping(context.Context) error { return nil }
func (m *Memory) Close() error               { return nil }
