// Package outbox relays committed outbox rows to the partner webhook and to
// Risk.
package outbox

import (
	"context"
	"encoding/json"
	"time"

	"example.test/ledger/internal/obs"
	"example.test/ledger/internal/riskclient"
	"example.test/ledger/internal/store"
	"example.test/ledger/internal/webhook"
)

// Relay periodically drains the outbox.
type Relay struct {
	store    *store.Store
	hook     *webhook.Client
	risk     *riskclient.Client
	interval time.Duration
	batch    int
	tickTTL  time.Duration
}

// NewRelay returns a relay polling every interval.
func NewRelay(s *store.Store, hook *webhook.Client, risk *riskclient.Client, interval time.Duration) *Relay {
	return &Relay{store: s, hook: hook, risk: risk, interval: interval, batch: 100, tickTTL: 15 * time.Second}
}

type transferPosted struct {
	TransferID string `json:"transfer_id"`
}

// Run drains the outbox until ctx is cancelled, then makes one last bounded
// attempt to flush what is left.
func (r *Relay) Run(ctx context.Context) error {
	t := time.NewTicker(r.interval)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			flushCtx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 5*time.Second)
			r.drain(flushCtx, ctx)
			cancel()
			return nil
		case <-t.C:
			tctx, cancel := context.WithTimeout(ctx, r.tickTTL)
			r.drain(tctx, ctx)
			cancel()
		}
	}
}

// drain relays one batch. tctx bounds this tick; lifetime is the relay's
// own lifetime ctx.
func (r *Relay) drain(tctx, lifetime context.Context) {
	msgs, err := r.store.ClaimOutbox(tctx, r.batch)
	if err != nil {
		obs.L(tctx).Error("claim outbox", "err", err)
		return
	}
	for _, m := range msgs {
		if err := r.hook.Send(tctx, m.Topic, m.Payload); err != nil {
			obs.C("outbox_failed").Inc()
			_ = r.store.MarkFailed(tctx, m.ID)
			continue
		}
		if m.Topic == "transfer.posted" {
			var ev transferPosted
			if json.Unmarshal(m.Payload, &ev) == nil {
				if err := r.risk.Report(lifetime, ev.TransferID, "settled"); err != nil {
					obs.L(tctx).Warn("risk report", "transfer", ev.TransferID, "err", err)
				}
			}
		}
		if err := r.store.MarkSent(tctx, m.ID); err != nil {
			obs.L(tctx).Error("mark sent", "id", m.ID, "err", err)
		}
	}
}
