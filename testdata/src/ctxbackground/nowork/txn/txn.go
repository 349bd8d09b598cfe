// Package txn runs transactions of a store.
package txn

// Store runs transactions; RunInTxn takes no ctx.
type Store interface {
	RunInTxn(f func() error) error
}

// Mem is an in-memory store.
type Mem struct{}

func (Mem) RunInTxn(f func() error) error { return f() }
