// Package reconciler turns the resource store into xDS snapshots. One control-plane replica,
// the leader, reconciles; the others wait.
package reconciler

import (
	"context"
	"errors"
	"time"

	"example.test/mesh/internal/store"
	"example.test/mesh/internal/telemetry"
)

// LeaderElector holds a lease row in the store while it leads.
type LeaderElector struct {
	store *store.Store
	id    string
	lease time.Duration
	retry time.Duration
	log   *telemetry.Logger
}

func (e *LeaderElector) key() store.Key {
	return store.Key{Mesh: "system", Type: "Lease", Name: "reconciler"}
}

func (e *LeaderElector) tryAcquire(ctx context.Context) (bool, error) {
	cur, err := e.store.Get(ctx, e.key())
	if errors.Is(err, store.ErrNotFound) {
		_, err = e.store.Create(ctx, store.Resource{Key: e.key(), Spec: []byte(e.id)})
		return err == nil, err
	}
	if err != nil {
		return false, err
	}
	if string(cur.Spec) != e.id && time.Since(time.Unix(0, cur.Version)) < e.lease {
		return false, nil
	}
	cur.Spec = []byte(e.id)
	_, err = e.store.Update(ctx, cur)
	return err == nil, err
}

// Run campaigns until ctx is done, calling onLead with a ctx that ends when leadership is lost.
func (e *LeaderElector) Run(ctx context.Context, onLead func(context.Context)) {
	for ctx.Err() == nil {
		ok, err := e.tryAcquire(ctx)
		if err != nil {
			e.log.Warn(ctx, "acquire lease", "err", err)
		}
		if !ok {
			time.Sleep(e.retry) // OK: ctxless — the election loop is a background worker, not a request scope
			continue
		}
		lctx, cancel := context.WithCancel(ctx)
		go e.renew(lctx, cancel)
		onLead(lctx)
		cancel()
	}
}

func (e *LeaderElector) renew(ctx context.Context, lost context.CancelFunc) {
	t := time.NewTicker(e.lease / 3)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
			rctx, cancel := context.WithTimeout(ctx, e.lease/3)
			ok, err := e.tryAcquire(rctx)
			cancel()
			if err != nil || !ok {
				lost()
				return
			}
		}
	}
}

// Release gives up the lease.
func (e *LeaderElector) Release(ctx context.Context) error {
	return e.store.Delete(ctx, e.key(), 0)
}
