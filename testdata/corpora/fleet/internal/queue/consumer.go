// Package queue consumes the fleet event bus (trip lifecycle, vehicle health, incidents)
// and routes each message to a handler.
package queue

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"time"
)

// Message is one delivery from the bus.
type Message struct {
	ID      string
	Topic   string
	Body    []byte
	Attempt int
}

// HandlerFunc processes one message. Returning an error nacks it for redelivery.
type HandlerFunc func(ctx context.Context, msg *Message) error

// Subscriber is the bus client.
type Subscriber interface {
	Receive(ctx context.Context) (*Message, error)
	Ack(ctx context.Context, id string) error
	Nack(ctx context.Context, id string, delay time.Duration) error
}

// Consumer pulls messages and dispatches them by topic.
type Consumer struct {
	sub     Subscriber
	routes  map[string]HandlerFunc
	timeout time.Duration
	log     *slog.Logger
}

// NewConsumer returns a consumer that gives each message at most timeout.
func NewConsumer(sub Subscriber, timeout time.Duration, log *slog.Logger) *Consumer {
	return &Consumer{sub: sub, routes: make(map[string]HandlerFunc), timeout: timeout, log: log}
}

// Handle routes a topic to h.
func (c *Consumer) Handle(topic string, h HandlerFunc) {
	c.routes[topic] = h
}

// ErrNoRoute is returned for messages on a topic nobody handles.
var ErrNoRoute = errors.New("queue: no handler for topic")

// Run consumes until ctx is done.
func (c *Consumer) Run(ctx context.Context) error {
	for {
		msg, err := c.sub.Receive(ctx)
		if err != nil {
			if ctx.Err() != nil {
				return nil
			}
			c.log.ErrorContext(ctx, "receive", "err", err)
			select {
			case <-ctx.Done():
				return nil
			case <-time.After(time.Second):
			}
			continue
		}
		if err := c.dispatch(ctx, msg); err != nil {
			c.log.WarnContext(ctx, "handler failed", "topic", msg.Topic, "id", msg.ID, "attempt", msg.Attempt, "err", err)
			_ = c.sub.Nack(ctx, msg.ID, backoff(msg.Attempt))
			continue
		}
		_ = c.sub.Ack(ctx, msg.ID)
	}
}

func (c *Consumer) dispatch(ctx context.Context, msg *Message) error {
	h, ok := c.routes[msg.Topic]
	if !ok {
		return fmt.Errorf("%w: %s", ErrNoRoute, msg.Topic)
	}
	hctx, cancel := context.WithTimeout(ctx, c.timeout)
	defer cancel()
	return h(hctx, msg)
}

func backoff(attempt int) time.Duration {
	d := time.Second << min(attempt, 6)
	return min(d, time.Minute)
}
