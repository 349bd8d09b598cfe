// Package tenants resolves the tenant a request belongs to.
package tenants

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"sync"
	"time"
)

// Tenant is one customer organisation served by the gateway.
type Tenant struct {
	ID       string
	Name     string
	Region   string
	Tier     string
	Disabled bool
}

type idKey struct{}
type tenantKey struct{}

// WithID returns a copy of ctx carrying the raw tenant id from the request.
func WithID(ctx context.Context, id string) context.Context {
	return context.WithValue(ctx, idKey{}, id)
}

// IDFrom returns the tenant id on ctx: the resolved tenant's, or the raw one.
func IDFrom(ctx context.Context) string {
	if t, ok := ctx.Value(tenantKey{}).(*Tenant); ok {
		return t.ID
	}
	id, _ := ctx.Value(idKey{}).(string)
	return id
}

// With returns a copy of ctx carrying the resolved tenant.
func With(ctx context.Context, t *Tenant) context.Context {
	return context.WithValue(ctx, tenantKey{}, t)
}

// From returns the resolved tenant, if any.
func From(ctx context.Context) (*Tenant, bool) {
	t, ok := ctx.Value(tenantKey{}).(*Tenant)
	return t, ok
}

// ErrUnknown is returned for a tenant id that does not exist.
var ErrUnknown = errors.New("tenants: unknown tenant")

// Directory resolves tenant ids, with a short in-process cache in front of Postgres.
type Directory struct {
	db  *sql.DB
	ttl time.Duration

	mu    sync.Mutex
	cache map[string]cached
}

type cached struct {
	t       *Tenant
	expires time.Time
}

// NewDirectory returns a directory with a cache of the given ttl.
func NewDirectory(db *sql.DB, ttl time.Duration) *Directory {
	return &Directory{db: db, ttl: ttl, cache: make(map[string]cached)}
}

// Resolve returns the tenant with the given id. The id on ctx (if any) is used
// for the audit trail of the query.
func (d *Directory) Resolve(ctx context.Context, id string) (*Tenant, error) {
	d.mu.Lock()
	if c, ok := d.cache[id]; ok && time.Now().Before(c.expires) {
		d.mu.Unlock()
		return c.t, nil
	}
	d.mu.Unlock()

	t := &Tenant{ID: id}
	err := d.db.QueryRowContext(ctx,
		`SELECT name, region, tier, disabled FROM tenants WHERE id = $1 /* caller tenant: `+IDFrom(ctx)+` */`, id,
	).Scan(&t.Name, &t.Region, &t.Tier, &t.Disabled)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, ErrUnknown
	}
	if err != nil {
		return nil, fmt.Errorf("tenants: resolve %s: %w", id, err)
	}
	d.mu.Lock()
	d.cache[id] = cached{t: t, expires: time.Now().Add(d.ttl)}
	d.mu.Unlock()
	return t, nil
}
