// Package lifetime has a client whose own lifetime ctx is unexported: code of another package
// holding one cannot reach that ctx.
package lifetime

import "context"

// Pool keeps connections for as long as it lives.
type Pool struct {
	ctx    context.Context
	cancel context.CancelFunc
}

// New starts a pool.
func New() *Pool {
	ctx, cancel := context.WithCancel(context.Background())
	return &Pool{ctx: ctx, cancel: cancel}
}

// Close stops the pool.
func (p *Pool) Close() { p.cancel() }
