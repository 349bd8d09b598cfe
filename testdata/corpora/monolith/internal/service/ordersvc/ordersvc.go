// Package ordersvc is the application layer of the orders API.
package ordersvc

import (
	"context"
	"log/slog"
	"time"

	"example.test/monolith/internal/domain/order"
	"example.test/monolith/internal/platform/events"
	"example.test/monolith/internal/repository"
)

// Service orchestrates order operations.
type Service struct {
	orders *order.Service
	events *events.Publisher
	poll   time.Duration
	log    *slog.Logger
}

// New returns the service.
func New(orders *order.Service, ev *events.Publisher, log *slog.Logger) *Service {
	return &Service{orders: orders, events: ev, poll: 2 * time.Second, log: log}
}

// Create places an order and announces it.
func (s *Service) Create(ctx context.Context, in order.PlaceInput) (*repository.Order, error) {
	o, err := s.orders.Place(ctx, in)
	if err != nil {
		return nil, err
	}
	if err := s.events.Publish(ctx, "order.placed", o.ID, o); err != nil {
		s.log.WarnContext(ctx, "publish order.placed failed", "order", o.ID, "err", err)
	}
	return o, nil
}

// Get returns an order.
func (s *Service) Get(ctx context.Context, id string) (*repository.Order, error) {
	return s.orders.Get(ctx, id)
}

// List returns an account's orders.
func (s *Service) List(ctx context.Context, accountID, status string, limit int) ([]repository.Order, error) {
	return s.orders.List(ctx, accountID, status, limit)
}

// Cancel cancels an order.
func (s *Service) Cancel(ctx context.Context, id, reason string) (*repository.Order, error) {
	o, err := s.orders.Cancel(ctx, id, reason)
	if err != nil {
		return o, err
	}
	if err := s.events.Publish(ctx, "order.cancelled", o.ID, map[string]string{"reason": reason}); err != nil {
		s.log.WarnContext(ctx, "publish order.cancelled failed", "order", o.ID, "err", err)
	}
	return o, nil
}

// SetStatus moves an order between states.
func (s *Service) SetStatus(ctx context.Context, id, from, to string) error {
	return s.orders.SetStatus(ctx, id, from, to)
}

// ReleaseHold frees the stock held for an order.
func (s *Service) ReleaseHold(orderID string) error {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	return s.orders.ReleaseHold(ctx, orderID)
}

// RecordRefund stores a refund and moves the order to refunded.
func (s *Service) RecordRefund(ctx context.Context, orderID string, amountMinor int64, providerRef string) (*repository.Refund, error) {
	r := &repository.Refund{OrderID: orderID, AmountMinor: amountMinor, ProviderRef: providerRef}
	if err := s.orders.RecordRefund(ctx, r); err != nil {
		return nil, err
	}
	return r, nil
}

// Subscribe polls an order for changes until ctx is done.
func (s *Service) Subscribe(ctx context.Context, id string) (<-chan repository.Order, error) {
	if _, err := s.orders.Get(ctx, id); err != nil {
		return nil, err
	}
	out := make(chan repository.Order, 8)
	go func() {
		defer close(out)
		since := time.Now()
		t := time.NewTicker(s.poll)
		defer t.Stop()
		for {
			select {
			case <-ctx.Done():
				return
			case <-t.C:
			}
			changes, err := s.orders.Changes(ctx, id, since)
			if err != nil {
				s.log.WarnContext(ctx, "order changes poll failed", "order", id, "err", err)
				continue
			}
			for _, c := range changes {
				since = c.CreatedAt
				select {
				case out <- c:
				case <-ctx.Done():
					return
				}
			}
		}
	}()
	return out, nil
}
