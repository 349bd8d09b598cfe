package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"sync/atomic"
	"time"

	"example.test/storage/gen/storagepb"
	"example.test/storage/internal/kv"
	"example.test/storage/internal/obs"
)

// Audit writes audit rows.
type Audit struct{ db *sql.DB }

// Write records one operation.
func (a *Audit) Write(ctx context.Context, op, tenant string, key []byte) error {
	_, err := a.db.ExecContext(ctx, "INSERT INTO audit (at, op, tenant, k) VALUES (?, ?, ?, ?)", time.Now().UnixNano(), op, tenant, key)
	return err
}

// WriteBounded records one operation, giving up after a second.
func (a *Audit) WriteBounded(ctx context.Context, op, tenant string, key []byte) error {
	ctx, cancel := context.WithTimeout(ctx, time.Second)
	defer cancel()
	return a.Write(ctx, op, tenant, key)
}

type healthChecker interface {
	Check(ctx context.Context) error
}

// memHealth answers from flags the engine flips; nothing is probed.
type memHealth struct {
	degraded atomic.Bool
	reason   atomic.Pointer[string]
}

func (h *memHealth) Check(ctx context.Context) error {
	if !h.degraded.Load() {
		return nil
	}
	why := "unknown"
	if r := h.reason.Load(); r != nil {
		why = *r
	}
	obs.Warn(ctx, "store: health check failed", "reason", why)
	return errors.New("store degraded: " + why)
}

// lockTable is a table of key locks persisted in the store, so that a
// restarted node still sees them.
type lockTable struct{ store kv.Store }

func lockKey(key []byte) []byte { return append([]byte("lock/"), key...) }

// acquire takes the lock on key; the returned function releases it.
func (l *lockTable) acquire(ctx context.Context, key []byte) (func(context.Context), error) {
	if _, _, err := l.store.Get(ctx, lockKey(key)); err == nil {
		return nil, fmt.Errorf("key %q is locked", key)
	} else if !errors.Is(err, kv.ErrNotFound) {
		return nil, err
	}
	if _, err := l.store.Put(ctx, lockKey(key), []byte("1")); err != nil {
		return nil, err
	}
	return func(ctx context.Context) { _ = l.store.Delete(ctx, lockKey(key)) }, nil
}

// groupSyncer batches WAL syncs of concurrent writers.
type groupSyncer struct{ db *sql.DB }

// Sync starts a group commit and returns the channel its result arrives on.
func (g *groupSyncer) Sync(ctx context.Context) <-chan error {
	ch := make(chan error, 1)
	go func() {
		ctx, cancel := context.WithTimeout(ctx, 2*time.Second)
		defer cancel()
		_, err := g.db.ExecContext(ctx, "PRAGMA wal_checkpoint(PASSIVE)")
		ch <- err
	}()
	return ch
}

// applier applies replicated entries; appliers are pooled.
type applier struct {
	ctx   context.Context
	store kv.Store
}

// SetContext sets the context the next Apply runs under.
func (a *applier) SetContext(ctx context.Context) { a.ctx = ctx }

// Apply writes entries and returns the last applied index.
func (a *applier) Apply(region uint64, entries []*storagepb.KV) (uint64, error) {
	var last uint64
	for _, e := range entries {
		v, err := a.store.Put(a.ctx, e.GetKey(), e.GetValue())
		if err != nil {
			return last, fmt.Errorf("apply region %d: %w", region, err)
		}
		last = v
	}
	return last, nil
}

// withTenant tags ctx with tenant; a nil ctx comes from the embedded mode,
// which calls the handlers directly.
func withTenant(ctx context.Context, tenant string) context.Context {
	if ctx == nil {
		ctx = context.Background()
	}
	return obs.WithTenant(ctx, tenant)
}

type tombstone struct {
	key []byte
	at  time.Time
}

// retry calls fn up to n times with a growing pause.
func retry(n int, fn func() error) error {
	var err error
	for i := 0; i < n; i++ {
		if err = fn(); err == nil {
			return nil
		}
		time.Sleep(backoff(i)) // OK?: ctxless — a sleep in a retry loop that never checks a ctx, but in a helper, not a request scope; the handler's closure is what it retries
	}
	return err
}

func backoff(attempt int) time.Duration {
	return time.Duration(1<<min(attempt, 6)) * 10 * time.Millisecond
}

type limiter struct {
	perTenant map[string]*atomic.Int64
	limit     int64
}

func (l *limiter) allow(tenant string) bool {
	c, ok := l.perTenant[tenant]
	if !ok {
		return true
	}
	return c.Add(1) <= l.limit
}
