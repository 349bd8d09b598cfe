// Package ctxutil holds ctx helpers that handlers in other packages call: some return a
// root context of their own, known to their callers through the Returned fact.
package ctxutil

import (
	"context"
	"time"
)

// Background returns a fresh root with a budget of its own.
func Background() (context.Context, context.CancelFunc) {
	return context.WithTimeout(context.Background(), 5*time.Second)
}

// Linked starts a new trace root, not a child of ctx.
func Linked(ctx context.Context, name string) context.Context {
	_ = name
	return context.TODO()
}

type tenantKey struct{}

// WithTenant derives from ctx: fine.
func WithTenant(ctx context.Context, tenant string) context.Context {
	return context.WithValue(ctx, tenantKey{}, tenant)
}

// OrDefault falls back to a root only for a nil ctx: fine.
func OrDefault(ctx context.Context) context.Context {
	if ctx == nil {
		return context.Background()
	}
	return ctx
}
