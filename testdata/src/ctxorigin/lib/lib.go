// Package lib is another package: the resolver knows its functions' results from their
// Returned facts.
package lib

import (
	"context"
	"time"
)

type key struct{}

// WithTenant returns a child of ctx carrying a tenant.
func WithTenant(ctx context.Context, tenant string) context.Context {
	return context.WithValue(ctx, key{}, tenant)
}

// Fresh returns a new root with a budget of its own.
func Fresh() (context.Context, context.CancelFunc) {
	return context.WithTimeout(context.Background(), time.Second)
}

// Detached keeps ctx's values without its cancellation, or returns ctx itself.
func Detached(ctx context.Context, keep bool) context.Context {
	if keep {
		return ctx
	}
	return context.WithoutCancel(ctx)
}

// OrDefault falls back to a root for a nil ctx: no caller's ctx is replaced.
func OrDefault(ctx context.Context) context.Context {
	if ctx == nil {
		return context.Background()
	}
	return ctx
}
