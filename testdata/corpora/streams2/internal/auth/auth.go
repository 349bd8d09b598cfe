// Package auth carries the caller's identity, set by the authentication interceptor.
package auth

import (
	"context"
	"errors"
)

type tenantKey struct{}

// ErrNoTenant is returned when the request carries no tenant.
var ErrNoTenant = errors.New("auth: no tenant in request")

// WithTenant returns ctx carrying tenant.
func WithTenant(ctx context.Context, tenant string) context.Context {
	return context.WithValue(ctx, tenantKey{}, tenant)
}

// TenantFrom returns the tenant the interceptor stored in ctx.
func TenantFrom(ctx context.Context) (string, error) {
	t, _ := ctx.Value(tenantKey{}).(string)
	if t == "" {
		return "", ErrNoTenant
	}
	return t, nil
}
