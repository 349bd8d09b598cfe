// Package tenant maps API keys to tenants and their plans.
package tenant

import (
	"context"
	"database/sql"
	"errors"
	"sync"
	"time"
)

// ErrUnknown is returned for API keys that do not belong to any tenant.
var ErrUnknown = errors.New("tenant: unknown api key")

// Tenant is the owner of an API key.
type Tenant struct {
	ID   string
	Plan string
}

type entry struct {
	t       *Tenant
	expires time.Time
}

// Resolver looks tenants up, caching them for a minute.
type Resolver struct {
	db      *sql.DB
	timeout time.Duration

	mu    sync.Mutex
	cache map[string]entry
}

// NewResolver returns a resolver.
func NewResolver(db *sql.DB, timeout time.Duration) *Resolver {
	return &Resolver{db: db, timeout: timeout, cache: map[string]entry{}}
}

// Resolve returns the tenant owning apiKey.
func (r *Resolver) Resolve(apiKey string) (*Tenant, error) {
	r.mu.Lock()
	e, ok := r.cache[apiKey]
	r.mu.Unlock()
	if ok && time.Now().Before(e.expires) {
		return e.t, nil
	}
	ctx, cancel := context.WithTimeout(context.Background(), r.timeout)
	defer cancel()
	var t Tenant
	err := r.db.QueryRowContext(ctx, `SELECT id, plan FROM tenants WHERE api_key = $1 AND revoked_at IS NULL`, apiKey).Scan(&t.ID, &t.Plan)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, ErrUnknown
	}
	if err != nil {
		return nil, err
	}
	r.mu.Lock()
	r.cache[apiKey] = entry{t: &t, expires: time.Now().Add(time.Minute)}
	r.mu.Unlock()
	return &t, nil
}

type tenantKey struct{}

// With attaches t to ctx.
func With(ctx context.Context, t *Tenant) context.Context {
	return context.WithValue(ctx, tenantKey{}, t)
}

// From returns the tenant attached to ctx.
func From(ctx context.Context) (*Tenant, bool) {
	t, ok := ctx.Value(tenantKey{}).(*Tenant)
	return t, ok
}
