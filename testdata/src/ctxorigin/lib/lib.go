// Package lib is another package: its functions' bodies are not seen by the resolver.
package lib

import "context"

type key struct{}

// WithTenant returns a child of ctx carrying a tenant.
func WithTenant(ctx context.Context, tenant string) context.Context {
	return context.WithValue(ctx, key{}, tenant)
}
