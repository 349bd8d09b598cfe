// Package authn resolves the callers of the gateway: bearer sessions kept in the
// cache sidecar and long-lived API keys kept in Postgres.
package authn

import (
	"context"
	"errors"
)

// ErrNotFound is returned when a credential is unknown.
var ErrNotFound = errors.New("authn: credential not found")

// Principal is the authenticated caller of one request.
type Principal struct {
	Subject   string
	AccountID string
	TenantID  string
	Scopes    []string
	Plan      string
	ViaAPIKey bool
}

// HasScope reports whether the principal was granted scope.
func (p *Principal) HasScope(scope string) bool {
	for _, s := range p.Scopes {
		if s == scope || s == "*" {
			return true
		}
	}
	return false
}

type principalKey struct{}

// WithPrincipal returns a copy of ctx carrying p.
func WithPrincipal(ctx context.Context, p *Principal) context.Context {
	return context.WithValue(ctx, principalKey{}, p)
}

// PrincipalFrom returns the principal stored on ctx, or an anonymous one.
func PrincipalFrom(ctx context.Context) *Principal {
	if p, ok := ctx.Value(principalKey{}).(*Principal); ok {
		return p
	}
	return &Principal{Subject: "anonymous"}
}
