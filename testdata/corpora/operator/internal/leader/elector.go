// Package leader implements lease-based leader election on top of the state
// store, so that only one control-plane replica runs the controllers.
package leader

import (
	"context"
	"errors"
	"log/slog"
	"sync"
	"time"

	"example.test/operator/internal/store"
)

// LeaseStore is the subset of the store used for election.
type LeaseStore interface {
	AcquireLease(ctx context.Context, name, holder string, ttl time.Duration) (*store.Lease, error)
	RenewLease(ctx context.Context, name, holder string, epoch int64, ttl time.Duration) error
	ReleaseLease(ctx context.Context, name, holder string) error
}

// Config tunes the election.
type Config struct {
	Lease         string
	Identity      string
	LeaseDuration time.Duration
	RenewDeadline time.Duration
	RetryPeriod   time.Duration
}

// Callbacks are invoked on leadership transitions.
type Callbacks struct {
	// OnStartedLeading runs in its own goroutine with a ctx that is cancelled
	// when leadership is lost.
	OnStartedLeading func(ctx context.Context)
	OnStoppedLeading func()
}

// Elector campaigns for and holds a lease.
type Elector struct {
	cfg   Config
	store LeaseStore
	cb    Callbacks
	log   *slog.Logger

	mu      sync.Mutex
	leading bool
}

// New returns an elector; call Run to start campaigning.
func New(cfg Config, ls LeaseStore, cb Callbacks, log *slog.Logger) *Elector {
	return &Elector{cfg: cfg, store: ls, cb: cb, log: log}
}

// IsLeader reports whether this replica currently holds the lease.
func (e *Elector) IsLeader() bool {
	e.mu.Lock()
	defer e.mu.Unlock()
	return e.leading
}

// Run campaigns until ctx is done. It blocks.
func (e *Elector) Run(ctx context.Context) {
	for ctx.Err() == nil {
		lease, err := e.acquire(ctx)
		if err != nil {
			if !errors.Is(err, store.ErrLeaseHeld) {
				e.log.Warn("lease acquire failed", "lease", e.cfg.Lease, "err", err)
			}
			sleep(ctx, e.cfg.RetryPeriod)
			continue
		}
		e.lead(ctx, lease)
	}
}

func (e *Elector) acquire(ctx context.Context) (*store.Lease, error) {
	actx, cancel := context.WithTimeout(ctx, e.cfg.RenewDeadline) // OK: worker loop, bounded
	defer cancel()
	return e.store.AcquireLease(actx, e.cfg.Lease, e.cfg.Identity, e.cfg.LeaseDuration)
}

// lead holds the lease until renewal fails or ctx is done.
func (e *Elector) lead(ctx context.Context, lease *store.Lease) {
	leaderCtx, stop := context.WithCancel(ctx) // OK: derived from the campaign ctx
	defer stop()

	e.setLeading(true)
	e.log.Info("became leader", "lease", lease.Name, "epoch", lease.Epoch)
	done := make(chan struct{})
	go func() {
		defer close(done)
		e.cb.OnStartedLeading(leaderCtx) // OK: leadership ctx, not a request
	}()

	t := time.NewTicker(e.cfg.RetryPeriod)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			stop()
			<-done
			e.release()
			e.stepDown()
			return
		case <-t.C:
			rctx, cancel := context.WithTimeout(ctx, e.cfg.RenewDeadline)                               // OK
			err := e.store.RenewLease(rctx, lease.Name, lease.Holder, lease.Epoch, e.cfg.LeaseDuration) // OK
			cancel()
			if err != nil {
				e.log.Error("lost leadership", "lease", lease.Name, "err", err)
				stop()
				<-done
				e.stepDown()
				return
			}
		}
	}
}

// release hands the lease back on shutdown so a standby takes over at once.
// The campaign ctx is already cancelled here, hence the fresh one.
func (e *Elector) release() {
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Second) // OK: shutdown path
	defer cancel()
	if err := e.store.ReleaseLease(ctx, e.cfg.Lease, e.cfg.Identity); err != nil { // OK
		e.log.Warn("lease release failed", "err", err)
	}
}

func (e *Elector) setLeading(v bool) {
	e.mu.Lock()
	e.leading = v
	e.mu.Unlock()
}

func (e *Elector) stepDown() {
	e.setLeading(false)
	if e.cb.OnStoppedLeading != nil {
		e.cb.OnStoppedLeading()
	}
}

func sleep(ctx context.Context, d time.Duration) {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
	case <-t.C:
	}
}
