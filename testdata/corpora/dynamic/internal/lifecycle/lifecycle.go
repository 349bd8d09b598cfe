// Package lifecycle owns the context that lives as long as the process's components.
package lifecycle

import (
	"context"
	"sync"
)

// Manager hands out the component lifetime ctx and cancels it on Stop.
type Manager struct {
	ctx    context.Context
	cancel context.CancelFunc
	wg     sync.WaitGroup
}

// New returns a manager whose lifetime ctx is derived from parent.
func New(parent context.Context) *Manager {
	ctx, cancel := context.WithCancel(parent)
	return &Manager{ctx: ctx, cancel: cancel}
}

// Context returns the lifetime ctx: done when Stop is called.
func (m *Manager) Context() context.Context { return m.ctx }

// Go runs fn with the lifetime ctx in a goroutine that Stop waits for.
func (m *Manager) Go(fn func(context.Context)) {
	m.wg.Add(1)
	go func() {
		defer m.wg.Done()
		fn(m.ctx)
	}()
}

// Stop cancels the lifetime ctx and waits for the goroutines started by Go.
func (m *Manager) Stop() {
	m.cancel()
	m.wg.Wait()
}
