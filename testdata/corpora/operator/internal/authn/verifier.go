// Package authn verifies the bearer tokens of API callers.
package authn

import (
	"context"
	"crypto/sha256"
	"database/sql"
	"encoding/hex"
	"errors"
	"sync"
	"time"
)

// ErrUnauthenticated is returned for a missing, unknown or expired token.
var ErrUnauthenticated = errors.New("authn: invalid token")

// Principal is an authenticated caller.
type Principal struct {
	Subject string
	Roles   []string
	Expires time.Time
}

// HasRole reports whether p has role r.
func (p *Principal) HasRole(r string) bool {
	for _, have := range p.Roles {
		if have == r || have == "admin" {
			return true
		}
	}
	return false
}

// Verifier checks tokens against the tokens table, with a short cache.
type Verifier struct {
	db  *sql.DB
	ttl time.Duration

	mu    sync.Mutex
	cache map[string]cached
}

type cached struct {
	p  *Principal
	at time.Time
}

// NewVerifier returns a verifier caching positive lookups for ttl.
func NewVerifier(db *sql.DB, ttl time.Duration) *Verifier {
	return &Verifier{db: db, ttl: ttl, cache: make(map[string]cached)}
}

// Verify resolves a bearer token to a principal.
func (v *Verifier) Verify(ctx context.Context, token string) (*Principal, error) {
	if token == "" {
		return nil, ErrUnauthenticated
	}
	sum := sha256.Sum256([]byte(token))
	key := hex.EncodeToString(sum[:])

	v.mu.Lock()
	c, ok := v.cache[key]
	v.mu.Unlock()
	if ok && time.Since(c.at) < v.ttl && time.Now().Before(c.p.Expires) {
		return c.p, nil
	}

	var p Principal
	var roles string
	err := v.db.QueryRowContext(ctx,
		`SELECT subject, roles, expires_at FROM api_tokens WHERE token_sha256 = $1 AND NOT revoked`, key).
		Scan(&p.Subject, &roles, &p.Expires)
	if errors.Is(err, sql.ErrNoRows) || (err == nil && time.Now().After(p.Expires)) {
		return nil, ErrUnauthenticated
	}
	if err != nil {
		return nil, err
	}
	p.Roles = splitRoles(roles)
	v.mu.Lock()
	v.cache[key] = cached{p: &p, at: time.Now()}
	v.mu.Unlock()
	return &p, nil
}

func splitRoles(s string) []string {
	var out []string
	start := 0
	for i := 0; i <= len(s); i++ {
		if i == len(s) || s[i] == ',' {
			if i > start {
				out = append(out, s[start:i])
			}
			start = i + 1
		}
	}
	return out
}

type principalKey struct{}

// WithPrincipal stores p in ctx.
func WithPrincipal(ctx context.Context, p *Principal) context.Context {
	return context.WithValue(ctx, principalKey{}, p)
}

// FromContext returns the principal stored by the auth interceptor.
func FromContext(ctx context.Context) (*Principal, bool) {
	p, ok := ctx.Value(principalKey{}).(*Principal)
	return p, ok
}
