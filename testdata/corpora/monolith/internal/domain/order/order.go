// Package order holds the order lifecycle rules.
package order

import (
	"context"
	"errors"
	"fmt"
	"time"

	"example.test/monolith/internal/domain/pricing"
	"example.test/monolith/internal/platform/db"
	"example.test/monolith/internal/repository"
	"example.test/monolith/internal/repository/pgrepo"
)

// Order statuses.
const (
	StatusPending   = "pending"
	StatusPaid      = "paid"
	StatusShipped   = "shipped"
	StatusCancelled = "cancelled"
	StatusRefunded  = "refunded"
)

var (
	// ErrAlreadyShipped is returned when cancelling a shipped order.
	ErrAlreadyShipped = errors.New("order: already shipped")
	// ErrEmpty is returned for an order without items.
	ErrEmpty = errors.New("order: no items")
)

// TaxFunc computes the tax due on a subtotal shipped to postcode.
type TaxFunc func(ctx context.Context, postcode string, subtotalMinor int64) (int64, error)

// Service applies the order rules.
type Service struct {
	store repository.OrderStore
	tax   TaxFunc
}

// NewService returns the service backed by Postgres and the regional tax tables.
func NewService(d *db.DB) *Service {
	return &Service{store: pgrepo.NewOrders(d), tax: pricing.TaxFor}
}

// NewServiceWith returns a service on an arbitrary store and tax function.
func NewServiceWith(store repository.OrderStore, tax TaxFunc) *Service {
	return &Service{store: store, tax: tax}
}

// PlaceInput is a new order.
type PlaceInput struct {
	AccountID      string
	Items          []repository.LineItem
	Currency       string
	ShipToPostcode string
}

// Place validates, prices and stores a new order.
func (s *Service) Place(ctx context.Context, in PlaceInput) (*repository.Order, error) {
	if len(in.Items) == 0 {
		return nil, ErrEmpty
	}
	var subtotal int64
	for _, it := range in.Items {
		if it.Quantity <= 0 {
			return nil, fmt.Errorf("order: bad quantity for %s", it.SKU)
		}
		subtotal += int64(it.Quantity) * it.UnitPriceMinor
	}
	tax, err := s.tax(ctx, in.ShipToPostcode, subtotal)
	if err != nil {
		return nil, fmt.Errorf("order: tax: %w", err)
	}
	o := &repository.Order{
		AccountID:  in.AccountID,
		Items:      in.Items,
		Status:     StatusPending,
		TotalMinor: subtotal + tax,
		TaxMinor:   tax,
		Currency:   in.Currency,
	}
	if err := s.store.Insert(ctx, o); err != nil {
		return nil, err
	}
	return o, nil
}

// Get returns one order.
func (s *Service) Get(ctx context.Context, id string) (*repository.Order, error) {
	return s.store.Get(ctx, id)
}

// List returns the newest orders of an account.
func (s *Service) List(ctx context.Context, accountID, status string, limit int) ([]repository.Order, error) {
	if limit <= 0 || limit > 100 {
		limit = 25
	}
	return s.store.List(ctx, accountID, status, limit)
}

// Cancel cancels an order that has not shipped.
func (s *Service) Cancel(ctx context.Context, id, reason string) (*repository.Order, error) {
	o, err := s.store.Get(ctx, id)
	if err != nil {
		return nil, err
	}
	if o.Status == StatusShipped {
		return o, ErrAlreadyShipped
	}
	if err := s.store.UpdateStatus(ctx, id, o.Status, StatusCancelled); err != nil {
		return nil, err
	}
	o.Status = StatusCancelled
	return o, nil
}

// SetStatus moves an order between states.
func (s *Service) SetStatus(ctx context.Context, id, from, to string) error {
	return s.store.UpdateStatus(ctx, id, from, to)
}

// ReleaseHold frees the stock held for an order.
func (s *Service) ReleaseHold(ctx context.Context, orderID string) error {
	return s.store.ReleaseHold(ctx, orderID)
}

// RecordRefund stores a refund booked at the payment provider.
func (s *Service) RecordRefund(ctx context.Context, r *repository.Refund) error {
	if err := s.store.InsertRefund(ctx, r); err != nil {
		return err
	}
	o, err := s.store.Get(ctx, r.OrderID)
	if err != nil {
		return err
	}
	return s.store.UpdateStatus(ctx, r.OrderID, o.Status, StatusRefunded)
}

// Changes returns status changes after since.
func (s *Service) Changes(ctx context.Context, id string, since time.Time) ([]repository.Order, error) {
	return s.store.Changes(ctx, id, since)
}
