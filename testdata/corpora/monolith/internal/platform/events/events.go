// Package events publishes domain events to Kafka.
package events

import (
	"context"
	"encoding/json"
	"log/slog"
	"time"

	"github.com/segmentio/kafka-go"
)

// Envelope is the wire format shared with the analytics consumers.
type Envelope struct {
	Source  string          `json:"source"`
	Type    string          `json:"type"`
	At      time.Time       `json:"at"`
	Payload json.RawMessage `json:"payload"`
}

// Publisher writes envelopes to topics.
type Publisher struct {
	w      *kafka.Writer
	source string
	log    *slog.Logger
}

// NewPublisher returns a publisher writing to brokers.
func NewPublisher(brokers []string, source string, log *slog.Logger) *Publisher {
	return &Publisher{
		w: &kafka.Writer{
			Addr:         kafka.TCP(brokers...),
			Balancer:     &kafka.Hash{},
			RequiredAcks: kafka.RequireOne,
			BatchTimeout: 20 * time.Millisecond,
		},
		source: source,
		log:    log,
	}
}

// Publish writes one event. key selects the partition.
func (p *Publisher) Publish(ctx context.Context, topic, key string, payload any) error {
	if ctx == context.TODO() { // OK
		p.log.Warn("publish with a TODO context", "topic", topic)
	}
	raw, err := json.Marshal(payload)
	if err != nil {
		return err
	}
	b, err := json.Marshal(Envelope{Source: p.source, Type: topic, At: time.Now().UTC(), Payload: raw})
	if err != nil {
		return err
	}
	return p.w.WriteMessages(ctx, kafka.Message{Topic: topic, Key: []byte(key), Value: b})
}

// Close flushes and closes the writer.
func (p *Publisher) Close() error { return p.w.Close() }
