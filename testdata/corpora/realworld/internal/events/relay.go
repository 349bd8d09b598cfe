package events

import (
	"context"
	"errors"
	"fmt"
	"time"

	"go.opentelemetry.io/otel/attribute"
	"go.uber.org/zap"

	"example.test/realworld/internal/store"
)

// OutboxStore is the part of the repository the relay needs.
type OutboxStore interface {
	ClaimOutbox(ctx context.Context, limit int, lease time.Duration) ([]store.OutboxEvent, error)
	MarkPublished(ctx context.Context, ids []int64) error
	Requeue(ctx context.Context, since time.Time, topic string) (int64, error)
}

// RelayConfig tunes the relay.
type RelayConfig struct {
	Interval     time.Duration // poll interval when nobody kicks the relay
	BatchSize    int
	Lease        time.Duration // how long a claimed batch is ours
	DrainTimeout time.Duration // budget for the final drain on shutdown
	Backoff      time.Duration // pause after a failed batch
}

// Relay moves events from the outbox table to Kafka. One relay runs per
// process, started by main; it outlives every request.
type Relay struct {
	store OutboxStore
	pub   *Publisher
	log   *zap.Logger
	cfg   RelayConfig
	kick  chan struct{}
}

// NewRelay returns a relay; call Run to start it.
func NewRelay(s OutboxStore, pub *Publisher, log *zap.Logger, cfg RelayConfig) *Relay {
	if cfg.BatchSize <= 0 {
		cfg.BatchSize = 200
	}
	if cfg.Lease <= 0 {
		cfg.Lease = 30 * time.Second
	}
	return &Relay{store: s, pub: pub, log: log.Named("relay"), cfg: cfg, kick: make(chan struct{}, 1)}
}

// Run drains the outbox until ctx is cancelled.
func (r *Relay) Run(ctx context.Context) error {
	ticker := time.NewTicker(r.cfg.Interval)
	defer ticker.Stop()
	for {
		select {
		case <-ctx.Done():
			// Publish what is already committed before the process exits, so a
			// rolling deploy does not delay events until the next pod's first
			// tick; DrainTimeout keeps shutdown bounded.
			dctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), r.cfg.DrainTimeout) // OK
			err := r.drain(dctx)
			cancel()
			return err
		case <-ticker.C:
		case <-r.kick:
		}
		if err := r.drain(ctx); err != nil && !errors.Is(err, context.Canceled) {
			r.log.Warn("outbox drain failed", zap.Error(err))
			time.Sleep(r.cfg.Backoff) // OK
		}
	}
}

// Kick asks the relay to look at the outbox now instead of at the next tick.
func (r *Relay) Kick() {
	select {
	case r.kick <- struct{}{}:
	default:
	}
}

// FlushAsync publishes pending outbox rows right away on a goroutine of its
// own, for callers that want their event out before the next tick.
func (r *Relay) FlushAsync(ctx context.Context) {
	go func() {
		if err := r.drain(context.WithoutCancel(ctx)); err != nil {
			// ^BUG: detach
			r.log.Warn("outbox flush failed", zap.Error(err))
		}
	}()
}

// Requeue marks events created since since as unpublished and kicks the relay.
func (r *Relay) Requeue(ctx context.Context, since time.Time, topic string) (int64, error) {
	n, err := r.store.Requeue(ctx, since, topic)
	if err != nil {
		return 0, fmt.Errorf("relay: requeue: %w", err)
	}
	r.Kick()
	return n, nil
}

// drain publishes claimed batches until the outbox is empty.
func (r *Relay) drain(ctx context.Context) error {
	ctx, span := tracer.Start(ctx, "relay.drain")
	defer span.End()
	total := 0
	for {
		batch, err := r.store.ClaimOutbox(ctx, r.cfg.BatchSize, r.cfg.Lease)
		if err != nil {
			return err
		}
		if len(batch) == 0 {
			span.SetAttributes(attribute.Int("relay.published", total))
			return nil
		}
		if err := r.pub.WriteOutbox(ctx, batch); err != nil {
			return err
		}
		ids := make([]int64, len(batch))
		for i, e := range batch {
			ids[i] = e.ID
		}
		if err := r.store.MarkPublished(ctx, ids); err != nil {
			return err
		}
		total += len(batch)
	}
}
