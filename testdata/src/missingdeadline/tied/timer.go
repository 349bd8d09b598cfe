package tied

import (
	"context"
	"log"
	"time"

	"example.com/gen/catalogpb"
)

// Daemon sends on a ctx whose cancel a timer runs: a deadline in all but name, and not
// reported. A timer that runs something else, or cancels another ctx, bounds nothing.
type Daemon struct {
	c       catalogpb.CatalogClient
	timeout time.Duration
}

// Watchdog cancels its ctx when the timer fires; the timer is reset as work goes on.
func (d *Daemon) Watchdog(id string) error {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	t := time.AfterFunc(d.timeout, cancel)
	defer t.Stop()
	_, err := d.c.GetItem(ctx, &catalogpb.GetItemRequest{Id: id})
	t.Reset(d.timeout)
	return err
}

// Literal cancels from a literal the timer runs.
func (d *Daemon) Literal(id string) error {
	ctx, cancel := context.WithCancelCause(context.Background())
	defer cancel(nil)
	t := time.AfterFunc(d.timeout, func() { cancel(context.DeadlineExceeded) })
	defer t.Stop()
	_, err := d.c.GetItem(ctx, &catalogpb.GetItemRequest{Id: id})
	return err
}

// Logs runs a timer that only logs: the ctx has no deadline.
func (d *Daemon) Logs(id string) error {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	t := time.AfterFunc(d.timeout, func() { log.Print("slow") })
	defer t.Stop()
	_, err := d.c.GetItem(ctx, &catalogpb.GetItemRequest{Id: id}) // want `RPC CatalogClient\.GetItem has no deadline \(ctx from context\.Background\(\)\)`
	return err
}

// Other's timer cancels another ctx than the one the call is given.
func (d *Daemon) Other(id string) error {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	_, stop := context.WithCancel(context.Background())
	t := time.AfterFunc(d.timeout, stop)
	defer t.Stop()
	_, err := d.c.GetItem(ctx, &catalogpb.GetItemRequest{Id: id}) // want `RPC CatalogClient\.GetItem has no deadline \(ctx from context\.Background\(\)\)`
	return err
}
