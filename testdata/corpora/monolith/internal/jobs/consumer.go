package jobs

import (
	"context"
	"encoding/json"
	"log/slog"

	"github.com/segmentio/kafka-go"

	"example.test/monolith/internal/domain/order"
	"example.test/monolith/internal/service/ordersvc"
)

// OrderEventsConsumer applies payment and fulfilment events to orders.
type OrderEventsConsumer struct {
	r   *kafka.Reader
	svc *ordersvc.Service
	log *slog.Logger
}

// NewOrderEventsConsumer returns the consumer.
func NewOrderEventsConsumer(brokers []string, svc *ordersvc.Service, log *slog.Logger) *OrderEventsConsumer {
	return &OrderEventsConsumer{
		r:   kafka.NewReader(kafka.ReaderConfig{Brokers: brokers, GroupID: "monolith-orders", Topic: "payments.events"}),
		svc: svc,
		log: log,
	}
}

type paymentEvent struct {
	Type    string `json:"type"`
	OrderID string `json:"order_id"`
}

// Run consumes until ctx is done.
func (c *OrderEventsConsumer) Run(ctx context.Context) error {
	defer c.r.Close()
	for {
		m, err := c.r.FetchMessage(ctx)
		if err != nil {
			return err
		}
		if err := c.Handle(ctx, m); err != nil {
			c.log.Warn("order event not applied", "offset", m.Offset, "err", err)
		}
		if err := c.r.CommitMessages(ctx, m); err != nil {
			return err
		}
	}
}

// Handle applies one message.
//
//deadlinelint:scope
func (c *OrderEventsConsumer) Handle(ctx context.Context, m kafka.Message) error {
	var ev paymentEvent
	if err := json.Unmarshal(m.Value, &ev); err != nil {
		c.log.WarnContext(ctx, "bad payment event", "err", err) // OK
		return nil
	}
	switch ev.Type {
	case "payment.captured":
		return c.svc.SetStatus(context.Background(), ev.OrderID, order.StatusPending, order.StatusPaid) // BUG: ctxbackground
	case "payment.failed":
		if err := c.svc.SetStatus(ctx, ev.OrderID, order.StatusPending, order.StatusCancelled); err != nil { // OK
			return err
		}
		return c.svc.ReleaseHold(ev.OrderID) // BUG: ctxbackground
	case "payment.expired":
		return c.svc.ReleaseHold(ev.OrderID) // OK
	}
	return nil
}
