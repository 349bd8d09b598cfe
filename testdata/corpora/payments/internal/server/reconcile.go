package server

import (
	"context"
	"log"
	"time"

	"example.test/payments/internal/fraud"
	"example.test/payments/internal/ledger"
)

// Reconciler periodically reports authorizations that were never captured to
// the risk service. It runs for the life of the process.
type Reconciler struct {
	Repo  *ledger.Repo
	Risk  *fraud.Risk
	Every time.Duration
	Age   time.Duration
}

// Run reconciles every r.Every until ctx is done.
func (r *Reconciler) Run(ctx context.Context) error {
	t := time.NewTicker(r.Every)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-t.C:
		}
		tctx, cancel := context.WithTimeout(ctx, r.Every/2)
		n, err := r.reconcileOnce(tctx) // OK
		cancel()
		if err != nil {
			log.Printf("reconcile: %v", err)
			continue
		}
		if n > 0 {
			log.Printf("reconcile: reported %d stale authorizations", n)
		}
	}
}

func (r *Reconciler) reconcileOnce(ctx context.Context) (int, error) {
	ids, err := r.Repo.StaleAuthorizations(ctx, r.Age)
	if err != nil {
		return 0, err
	}
	for i, id := range ids {
		if err := r.Risk.ReportOutcome(ctx, id, "expired_uncaptured"); err != nil {
			return i, err
		}
	}
	return len(ids), nil
}
