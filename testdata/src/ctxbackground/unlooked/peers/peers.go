// Package peers holds helpers a handler of another package calls with a root: one that never
// looks at its ctx, one that does work with it.
package peers

import "context"

// Store stands for a peer store: what it does with its ctx is out of sight.
type Store interface {
	Lookup(ctx context.Context, id string) (string, error)
}

// Table is the peer table.
type Table struct {
	leader string
	store  Store
}

// Leader returns the current leader; it takes a ctx for its interface's sake and never looks at it.
func (t *Table) Leader(ctx context.Context) string { return t.leader }

// Resolve looks the peer up with ctx.
func (t *Table) Resolve(ctx context.Context, id string) (string, error) {
	return t.store.Lookup(ctx, id)
}
