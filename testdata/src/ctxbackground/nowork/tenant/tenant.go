// Package tenant reads tenant IDs from a ctx, through a resolver chosen at start-up: an
// interface of the package whose implementations all only read the ctx's values. A root
// context that carries an ID to them loses no deadline.
package tenant

import (
	"context"
	"database/sql"
	"errors"
	"strings"

	"ctxbackground/nowork/txn"
)

type key struct{}

// Inject returns a ctx carrying id.
func Inject(ctx context.Context, id string) context.Context {
	return context.WithValue(ctx, key{}, id)
}

// Resolver reads the tenants of a request from its ctx.
type Resolver interface {
	IDs(ctx context.Context) ([]string, error)
}

// Single allows one tenant per request.
type Single struct{}

func (Single) IDs(ctx context.Context) ([]string, error) {
	id, ok := ctx.Value(key{}).(string)
	if !ok {
		return nil, errors.New("no tenant")
	}
	return []string{id}, nil
}

// Multi allows several, separated by '|'.
type Multi struct{}

func (Multi) IDs(ctx context.Context) ([]string, error) {
	id, _ := ctx.Value(key{}).(string)
	return strings.Split(id, "|"), nil
}

var resolver Resolver = Single{}

// UseMulti switches to the multi-tenant resolver.
func UseMulti() { resolver = Multi{} }

// IDs returns the tenants of ctx, through the package's resolver.
func IDs(ctx context.Context) ([]string, error) { return resolver.IDs(ctx) }

// FromOrgID parses an org ID the way a request's would be: a root context only carries it.
func FromOrgID(orgID string) ([]string, error) {
	return IDs(Inject(context.TODO(), orgID))
}

// Quota looks tenants up through a store chosen at start-up, one implementation of which
// queries a database: that is work.
type Quota interface {
	Limit(ctx context.Context, tenant string) (int, error)
}

// Fixed is a quota of a constant.
type Fixed struct{ N int }

func (f Fixed) Limit(ctx context.Context, tenant string) (int, error) {
	_ = ctx.Value(key{})
	return f.N, nil
}

// Stored reads quotas from a database.
type Stored struct{ DB *sql.DB }

func (s Stored) Limit(ctx context.Context, tenant string) (int, error) {
	var n int
	err := s.DB.QueryRowContext(ctx, "SELECT quota FROM tenants WHERE id = $1", tenant).Scan(&n)
	return n, err
}

var quotas Quota = Fixed{N: 10}

// UseDB switches to quotas read from db.
func UseDB(db *sql.DB) { quotas = Stored{DB: db} }

// LimitOf looks a tenant's quota up with a root context of its own: the database one is work.
func LimitOf(tenant string) (int, error) { // want LimitOf:"drops ctx"
	return quotas.Limit(context.TODO(), tenant)
}

// Label names the tenant a ctx carries, for logs.
func Label(ctx context.Context) string {
	if ctx == nil {
		return "<unknown>"
	}
	id, _ := ctx.Value(key{}).(string)
	return id
}

var store txn.Store = txn.Mem{}

// Rename labels its log lines with a root context that only carries the tenant: no work is done
// with it.
func Rename(tenant, name string) (string, error) {
	return rename(Inject(context.Background(), tenant), name)
}

// rename reads its ctx's tenant, also inside the transaction's closure: it does no work with
// its ctx.
func rename(ctx context.Context, name string) (string, error) {
	var out string
	err := store.RunInTxn(func() error {
		out = Label(ctx) + "/" + name
		return nil
	})
	return out + " " + Label(ctx), err
}

// Purge captures its root in a closure that queries the database with it: that is work.
func Purge(db *sql.DB, tenant string) error { // want Purge:"drops ctx"
	ctx := Inject(context.Background(), tenant)
	return store.RunInTxn(func() error {
		_, err := db.ExecContext(ctx, "DELETE FROM items WHERE tenant = $1", Label(ctx))
		return err
	})
}
