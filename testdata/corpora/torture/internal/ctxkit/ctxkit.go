// Package ctxkit holds small context helpers shared by the services: tenant
// propagation, per-operation budgets, retries and fan-out utilities.
package ctxkit

import (
	"context"
	"errors"
	"time"
)

type tenantKey struct{}

// TenantContext is a context that knows which tenant it acts for.
type TenantContext interface {
	context.Context
	Tenant() string
}

// tenantCtx wraps a parent context and answers Tenant() without a Value lookup.
// Deadline, Done and Err are the parent's, so cancellation flows through.
type tenantCtx struct {
	parent context.Context
	tenant string
}

func (t tenantCtx) Deadline() (time.Time, bool) { return t.parent.Deadline() }
func (t tenantCtx) Done() <-chan struct{}       { return t.parent.Done() }
func (t tenantCtx) Err() error                  { return t.parent.Err() }
func (t tenantCtx) Tenant() string              { return t.tenant }

func (t tenantCtx) Value(key any) any {
	if _, ok := key.(tenantKey); ok {
		return t.tenant
	}
	return t.parent.Value(key)
}

// WithTenant returns a TenantContext derived from parent.
func WithTenant(parent context.Context, tenant string) TenantContext {
	return tenantCtx{parent: parent, tenant: tenant}
}

// TenantFrom returns the tenant carried by ctx, if any.
func TenantFrom(ctx context.Context) (string, bool) {
	if tc, ok := ctx.(TenantContext); ok {
		return tc.Tenant(), true
	}
	t, ok := ctx.Value(tenantKey{}).(string)
	return t, ok
}

// Scoped is a context that carries the name of the operation it belongs to.
// It embeds the parent context, so it is itself a context.Context.
type Scoped struct {
	context.Context
	Op      string
	Started time.Time
}

// NewScoped wraps ctx for the operation op.
func NewScoped(ctx context.Context, op string) Scoped {
	return Scoped{Context: ctx, Op: op, Started: time.Now()}
}

// Elapsed reports how long the operation has been running.
func (s Scoped) Elapsed() time.Duration { return time.Since(s.Started) }

// Budget derives a context bounded by d from parent and reports whether the
// parent already had a tighter deadline.
func Budget(parent context.Context, d time.Duration) (context.Context, context.CancelFunc, bool) {
	if dl, ok := parent.Deadline(); ok && time.Until(dl) < d {
		ctx, cancel := context.WithCancel(parent)
		return ctx, cancel, true
	}
	ctx, cancel := context.WithTimeout(parent, d)
	return ctx, cancel, false
}

// Retry calls fn up to attempts times, backing off between attempts, and stops
// early when ctx is done. A nil ctx means "no caller context".
func Retry(ctx context.Context, attempts int, fn func(context.Context) error) error {
	if ctx == nil {
		ctx = context.Background() // OK
	}
	var err error
	backoff := 50 * time.Millisecond
	for i := 0; i < attempts; i++ {
		if err = fn(ctx); err == nil {
			return nil
		}
		var perm interface{ Permanent() bool }
		if errors.As(err, &perm) && perm.Permanent() {
			return err
		}
		t := time.NewTimer(backoff)
		select {
		case <-ctx.Done():
			t.Stop()
			return errors.Join(err, context.Cause(ctx))
		case <-t.C:
		}
		backoff *= 2
	}
	return err
}

// Sleep waits for d or until ctx is done, whichever comes first.
func Sleep(ctx context.Context, d time.Duration) error {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-t.C:
		return nil
	}
}

// Bind returns a function that calls fn with ctx fixed.
func Bind[A, R any](ctx context.Context, fn func(context.Context, A) (R, error)) func(A) (R, error) {
	return func(a A) (R, error) { return fn(ctx, a) }
}
