// Package events publishes order events to Kafka, directly or through the
// transactional outbox.
package events

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

	"github.com/segmentio/kafka-go"
	"go.opentelemetry.io/otel"
	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/propagation"
	"go.opentelemetry.io/otel/trace"
	"go.uber.org/zap"

	"example.test/realworld/internal/store"
)

var tracer = otel.Tracer("example.test/realworld/internal/events")

// Topics.
const (
	TopicOrders    = "orders.v1"
	TopicAnalytics = "analytics.checkout.v1"
	TopicReceipts  = "notifications.receipts.v1"
)

// Event is one message for Kafka.
type Event struct {
	Topic   string
	Key     string
	Type    string
	Payload any
	At      time.Time
}

// Publisher writes events to Kafka.
type Publisher struct {
	w   *kafka.Writer
	log *zap.Logger
}

// NewPublisher returns a publisher on brokers. The writer is safe for
// concurrent use and batches messages per topic.
func NewPublisher(brokers []string, log *zap.Logger) *Publisher {
	return &Publisher{
		w: &kafka.Writer{
			Addr:                   kafka.TCP(brokers...),
			Balancer:               &kafka.Hash{},
			RequiredAcks:           kafka.RequireAll,
			BatchTimeout:           10 * time.Millisecond,
			AllowAutoTopicCreation: false,
		},
		log: log.Named("events"),
	}
}

// Close flushes pending messages and closes the writer.
func (p *Publisher) Close() error {
	return p.w.Close()
}

// Publish writes evt and waits for the brokers to acknowledge it.
func (p *Publisher) Publish(ctx context.Context, evt Event) error {
	ctx, span := tracer.Start(ctx, "events.Publish", trace.WithSpanKind(trace.SpanKindProducer),
		trace.WithAttributes(attribute.String("messaging.destination.name", evt.Topic)))
	defer span.End()
	msg, err := encode(ctx, evt)
	if err != nil {
		return err
	}
	if err := p.w.WriteMessages(ctx, msg); err != nil {
		span.RecordError(err)
		return fmt.Errorf("events: publish %s to %s: %w", evt.Type, evt.Topic, err)
	}
	return nil
}

// PublishBestEffort publishes evt and only logs a failure. It is used for
// analytics events, which nobody wants a request to fail for.
func (p *Publisher) PublishBestEffort(evt Event) {
	ctx, span := tracer.Start(context.Background(), "events.PublishBestEffort", trace.WithSpanKind(trace.SpanKindProducer))
	defer span.End()
	msg, err := encode(ctx, evt)
	if err != nil {
		p.log.Warn("encode event", zap.String("type", evt.Type), zap.Error(err))
		return
	}
	if err := p.w.WriteMessages(ctx, msg); err != nil {
		p.log.Warn("publish event", zap.String("type", evt.Type), zap.Error(err))
	}
}

// Emit publishes evt in the background, after the caller has returned.
func (p *Publisher) Emit(ctx context.Context, evt Event) {
	// The event describes a change that is already committed; losing it
	// because the client went away would leave consumers out of date.
	dctx := context.WithoutCancel(ctx)
	// ^BUG: detach
	go func() {
		if err := p.Publish(dctx, evt); err != nil {
			p.log.Error("emit event", zap.String("type", evt.Type), zap.Error(err))
		}
	}()
}

// WriteOutbox publishes outbox rows as they were stored.
func (p *Publisher) WriteOutbox(ctx context.Context, rows []store.OutboxEvent) error {
	ctx, span := tracer.Start(ctx, "events.WriteOutbox", trace.WithSpanKind(trace.SpanKindProducer),
		trace.WithAttributes(attribute.Int("messaging.batch.message_count", len(rows))))
	defer span.End()
	msgs := make([]kafka.Message, 0, len(rows))
	for _, r := range rows {
		m := kafka.Message{Topic: r.Topic, Key: []byte(r.Key), Value: r.Payload, Time: r.CreatedAt}
		for k, v := range r.Headers {
			m.Headers = append(m.Headers, kafka.Header{Key: k, Value: []byte(v)})
		}
		msgs = append(msgs, m)
	}
	return p.w.WriteMessages(ctx, msgs...)
}

func encode(ctx context.Context, evt Event) (kafka.Message, error) {
	if evt.At.IsZero() {
		evt.At = time.Now().UTC()
	}
	body, err := json.Marshal(struct {
		Type    string    `json:"type"`
		At      time.Time `json:"at"`
		Payload any       `json:"payload"`
	}{evt.Type, evt.At, evt.Payload})
	if err != nil {
		return kafka.Message{}, err
	}
	carrier := propagation.MapCarrier{}
	otel.GetTextMapPropagator().Inject(ctx, carrier)
	msg := kafka.Message{Topic: evt.Topic, Key: []byte(evt.Key), Value: body, Time: evt.At}
	for k, v := range carrier {
		msg.Headers = append(msg.Headers, kafka.Header{Key: k, Value: []byte(v)})
	}
	return msg, nil
}

// OrderEvent builds an event about an order on TopicOrders.
func OrderEvent(typ string, o *store.Order) Event {
	return Event{Topic: TopicOrders, Key: o.ID, Type: typ, Payload: map[string]any{
		"order_id":    o.ID,
		"customer_id": o.CustomerID,
		"status":      o.Status,
		"total_cents": o.TotalCents,
		"currency":    o.Currency,
	}}
}

// Analytics builds a checkout analytics event.
func Analytics(typ string, o *store.Order) Event {
	return Event{Topic: TopicAnalytics, Key: o.CustomerID, Type: typ, Payload: map[string]any{
		"order_id": o.ID, "lines": len(o.Lines), "total_cents": o.TotalCents,
	}}
}

// Receipt builds a receipt request for the notifications service.
func Receipt(o *store.Order) Event {
	return Event{Topic: TopicReceipts, Key: o.CustomerID, Type: "receipt.requested", Payload: map[string]any{
		"order_id": o.ID, "customer_id": o.CustomerID,
	}}
}

// Outbox turns evt into an outbox row.
func Outbox(evt Event) store.OutboxEvent {
	body, _ := json.Marshal(struct {
		Type    string `json:"type"`
		Payload any    `json:"payload"`
	}{evt.Type, evt.Payload})
	return store.OutboxEvent{Topic: evt.Topic, Key: evt.Key, Payload: body}
}
