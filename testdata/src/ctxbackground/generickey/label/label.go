// Package label is the user's own typed context key: Get calls lookup, a generic method calling
// another, and only reads the ctx's value; Refresh hands its ctx to a query through load.
package label

import (
	"context"
	"database/sql"
)

type key struct{ name string }

// Tag is a typed key of a ctx value.
type Tag[V any] struct {
	name key
	def  V
}

// Tenant names the tenant a request is for.
var Tenant = Tag[string]{name: key{"tenant"}}

func (t Tag[V]) lookup(ctx context.Context) (V, bool) {
	v, ok := ctx.Value(t.name).(V)
	return v, ok
}

// Get returns the value under t, or its default.
func (t Tag[V]) Get(ctx context.Context) V {
	if v, ok := t.lookup(ctx); ok {
		return v
	}
	return t.def
}

// Refresh records the value under t in the database.
func (t Tag[V]) Refresh(ctx context.Context, db *sql.DB) error { return t.load(ctx, db) }

func (t Tag[V]) load(ctx context.Context, db *sql.DB) error {
	_, err := db.ExecContext(ctx, "update tags set seen = now() where name = $1", t.name.name)
	return err
}
