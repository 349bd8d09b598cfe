package worker

import (
	"context"
	"log/slog"
	"time"

	"example.test/storage/gen/storagepb"
)

// Heartbeater reports this store to the meta service.
type Heartbeater struct {
	meta     storagepb.MetaServiceClient
	storeID  uint64
	addr     string
	interval time.Duration
	used     func() uint64
}

// NewHeartbeater returns a heartbeat loop for storeID.
func NewHeartbeater(meta storagepb.MetaServiceClient, storeID uint64, addr string, interval time.Duration, used func() uint64) *Heartbeater {
	return &Heartbeater{meta: meta, storeID: storeID, addr: addr, interval: interval, used: used}
}

// Run heartbeats until ctx is done. Each heartbeat must finish before the
// next one is due.
func (h *Heartbeater) Run(ctx context.Context) error {
	t := time.NewTimer(1) // OK: deadlinemath — 1 for NewTimer is the shortest duration: the first heartbeat fires at once, Reset gives the period
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-t.C:
		}
		hctx, cancel := context.WithTimeout(ctx, h.interval)
		_, err := h.meta.StoreHeartbeat(hctx, &storagepb.StoreHeartbeatRequest{ // OK: missingdeadline — deadline derived on each turn of the loop
			StoreId: h.storeID, Address: h.addr, UsedBytes: h.used(),
		})
		cancel()
		if err != nil {
			slog.Warn("heartbeat failed", "err", err)
		}
		t.Reset(h.interval)
	}
}
