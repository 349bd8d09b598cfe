// Package lifetime holds the process's lifetime context: it ends when shutdown starts.
package lifetime

import "context"

// Manager owns a context that lives as long as the server.
type Manager struct {
	ctx    context.Context
	cancel context.CancelFunc
}

// New returns a manager whose context is a child of parent.
func New(parent context.Context) *Manager {
	ctx, cancel := context.WithCancel(parent)
	return &Manager{ctx: ctx, cancel: cancel}
}

// Context returns the lifetime context.
func (m *Manager) Context() context.Context { return m.ctx }

// Stop ends the lifetime context.
func (m *Manager) Stop() { m.cancel() }
