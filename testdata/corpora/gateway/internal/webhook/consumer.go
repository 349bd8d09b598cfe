package webhook

import (
	"context"
	"log"
	"time"
)

// Consumer leases due deliveries and hands them to the processor.
type Consumer struct {
	store *Store
	proc  *Processor
	batch int
	lease time.Duration
	idle  time.Duration
}

// NewConsumer returns a consumer.
func NewConsumer(store *Store, proc *Processor, batch int, lease, idle time.Duration) *Consumer {
	return &Consumer{store: store, proc: proc, batch: batch, lease: lease, idle: idle}
}

// Run consumes until ctx is done.
func (c *Consumer) Run(ctx context.Context) error {
	for ctx.Err() == nil {
		lctx, cancel := context.WithTimeout(ctx, 5*time.Second)
		ds, err := c.store.Lease(lctx, c.batch, c.lease) // OK
		cancel()
		if err != nil {
			log.Printf("webhook: lease: %v", err)
			time.Sleep(c.idle) // OK
			continue
		}
		if len(ds) == 0 {
			time.Sleep(c.idle) // OK
			continue
		}
		for _, d := range ds {
			dctx, cancel := context.WithDeadline(ctx, d.LeaseTill)
			if err := c.proc.Handle(dctx, d); err != nil {
				log.Printf("webhook %d: %v", d.ID, err)
			}
			cancel()
		}
	}
	return ctx.Err()
}

// Requeue gives back the leases this consumer still holds; called on shutdown.
func (c *Consumer) Requeue(ids []int64) {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second) // OK
	defer cancel()
	for _, id := range ids {
		if err := c.store.MarkFailed(ctx, id, "consumer shut down", false); err != nil {
			log.Printf("webhook %d: requeue: %v", id, err)
		}
	}
}
