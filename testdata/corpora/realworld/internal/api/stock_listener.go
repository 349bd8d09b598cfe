package api

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/nats-io/nats.go"
	"go.opentelemetry.io/otel/attribute"
	"go.uber.org/zap"

	"example.test/realworld/internal/cache"
	"example.test/realworld/internal/events"
	"example.test/realworld/internal/store"
	"example.test/realworld/internal/telemetry"
)

// StockListener reacts to the stock events the warehouse publishes on NATS:
// orders wait as backordered while a SKU is depleted and go back to pending
// when it is restocked.
type StockListener struct {
	nc       *nats.Conn
	orders   OrderStore
	cache    *cache.Cache
	log      *zap.Logger
	lifetime context.Context
	timeout  time.Duration

	subs []*nats.Subscription
}

type stockEvent struct {
	SKU       string `json:"sku"`
	Available int32  `json:"available"`
	Warehouse string `json:"warehouse"`
}

// NewStockListener returns a listener; ctx is the process context and
// timeout the budget of one message.
func NewStockListener(ctx context.Context, nc *nats.Conn, orders OrderStore, c *cache.Cache, log *zap.Logger, timeout time.Duration) *StockListener {
	return &StockListener{nc: nc, orders: orders, cache: c, log: log.Named("stock"), lifetime: ctx, timeout: timeout}
}

// Start subscribes to the warehouse subjects. Every message is handled with
// a context of its own, bounded by the listener's timeout.
func (l *StockListener) Start() error {
	handlers := map[string]func(context.Context, *nats.Msg) error{
		"warehouse.stock.depleted":  l.handleDepleted,
		"warehouse.stock.restocked": l.handleRestocked,
	}
	for subject, handle := range handlers {
		sub, err := l.nc.QueueSubscribe(subject, "ordersd", func(m *nats.Msg) {
			ctx, cancel := context.WithTimeout(l.lifetime, l.timeout) // OK
			defer cancel()
			if err := handle(ctx, m); err != nil {
				l.log.Warn("stock event", zap.String("subject", m.Subject), zap.Error(err))
			}
		})
		if err != nil {
			return fmt.Errorf("subscribe %s: %w", subject, err)
		}
		l.subs = append(l.subs, sub)
	}
	return nil
}

// Stop unsubscribes.
func (l *StockListener) Stop() {
	for _, s := range l.subs {
		_ = s.Drain()
	}
}

// handleDepleted marks the open orders of a depleted SKU as backordered.
//
//deadlinelint:scope
func (l *StockListener) handleDepleted(ctx context.Context, m *nats.Msg) error {
	var evt stockEvent
	if err := json.Unmarshal(m.Data, &evt); err != nil {
		return fmt.Errorf("decode stock event: %w", err)
	}
	ctx, span := telemetry.Start(ctx, "stock.depleted", attribute.String("sku", evt.SKU)) // OK
	defer span.End()

	ids, err := l.orders.OrdersWithSKU(ctx, evt.SKU, store.StatusPending) // OK
	if err != nil {
		return err
	}
	var moved []string
	for _, id := range ids {
		oe := store.OutboxEvent{Topic: events.TopicOrders, Key: id, Payload: []byte(`{"type":"order.backordered","order_id":"` + id + `"}`)}
		var o *store.Order
		for attempt := 0; attempt < 3; attempt++ {
			o, err = l.orders.UpdateStatus(ctx, id, []store.Status{store.StatusPending}, store.StatusBackordered, oe)
			if err == nil || !store.IsRetryable(err) {
				break
			}
			time.Sleep(100 * time.Millisecond) // BUG: ctxless
		}
		if errors.Is(err, store.ErrConflict) {
			continue
		}
		if err != nil {
			return err
		}
		l.cache.InvalidateCustomer(o.CustomerID) // OK: the same root as the finding at orders.go:256, which lists this call (one finding per root, precision issue)
		moved = append(moved, id)
	}
	payload, err := json.Marshal(map[string]any{"sku": evt.SKU, "orders": moved})
	if err != nil {
		return err
	}
	return l.cache.Publish(l.lifetime, "orders:backordered", payload) // BUG: ctxflow
}

// handleRestocked moves backordered orders of a SKU back to pending.
//
//deadlinelint:scope
func (l *StockListener) handleRestocked(ctx context.Context, m *nats.Msg) error {
	var evt stockEvent
	if err := json.Unmarshal(m.Data, &evt); err != nil {
		return fmt.Errorf("decode stock event: %w", err)
	}
	ctx, span := telemetry.Start(ctx, "stock.restocked", attribute.String("sku", evt.SKU))
	defer span.End()

	ids, err := l.orders.OrdersWithSKU(ctx, evt.SKU, store.StatusBackordered)
	if err != nil {
		return err
	}
	for _, id := range ids {
		oe := store.OutboxEvent{Topic: events.TopicOrders, Key: id, Payload: []byte(`{"type":"order.restocked","order_id":"` + id + `"}`)}
		uctx, cancel := context.WithTimeout(context.Background(), 2*time.Second) // BUG: ctxbackground
		_, err := l.orders.UpdateStatus(uctx, id, []store.Status{store.StatusBackordered}, store.StatusPending, oe)
		cancel()
		if err != nil && !errors.Is(err, store.ErrConflict) {
			l.log.Warn("restock order", zap.String("order_id", id), zap.Error(err))
		}
	}
	if m.Reply != "" {
		return m.Respond([]byte("ok"))
	}
	return nil
}
