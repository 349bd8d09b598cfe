package repo

import (
	"context"
	"sync"

	ordersv1 "example.test/blind/gen/ordersv1"
)

// Memory is an in-memory OrderRepo for tests and local runs.
type Memory struct {
	mu     sync.Mutex
	orders map[string]*ordersv1.Order
}

// NewMemory returns an empty repository.
func NewMemory() *Memory { return &Memory{orders: map[string]*ordersv1.Order{}} }

func (m *Memory) Get(ctx context.Context, id string) (*ordersv1.Order, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	o, ok := m.orders[id]
	if !ok {
		return nil, ErrNotFound
	}
	return o, nil
}

func (m *Memory) Insert(ctx context.Context, o *ordersv1.Order) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.orders[o.Id] = o
	return nil
}

func (m *Memory) SetStatus(ctx context.Context, id, status string) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	if o, ok := m.orders[id]; ok {
		o.Status = status
		return nil
	}
	return ErrNotFound
}

func (m *Memory) ListByCustomer(ctx context.Context, customerID string, fn func(*ordersv1.Order) error) error {
	m.mu.Lock()
	var out []*ordersv1.Order
	for _, o := range m.orders {
		if o.CustomerId == customerID {
			out = append(out, o)
		}
	}
	m.mu.Unlock()
	for _, o := range out {
		if err := ctx.Err(); err != nil {
			return err
		}
		if err := fn(o); err != nil {
			return err
		}
	}
	return nil
}

func (m *Memory) Archive(ctx context.Context, id string) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	delete(m.orders, id)
	return nil
}
