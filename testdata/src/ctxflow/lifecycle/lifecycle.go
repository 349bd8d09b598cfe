// Package lifecycle holds the process's lifetime ctx, for packages that need one: a call
// made with it from a handler outlives the request. Its functions' Returned facts tell
// handlers in other packages where the ctx they return comes from.
package lifecycle

import "context"

var root, stop = context.WithCancel(context.Background())

// Context returns the process's lifetime ctx.
func Context() context.Context { return root }

// Stop cancels it at shutdown.
func Stop() { stop() }

// Manager owns a component's lifetime.
type Manager struct {
	ctx context.Context
}

// NewManager starts a component's lifetime under parent.
func NewManager(parent context.Context) *Manager { return &Manager{ctx: parent} }

// Context returns the component's lifetime ctx.
func (m *Manager) Context() context.Context { return m.ctx }

// Request is a per-request state built by a handler.
type Request struct {
	ctx context.Context
}

// NewRequest holds the request ctx.
func NewRequest(ctx context.Context) *Request { return &Request{ctx: ctx} }

// Context returns the request's ctx.
func (r *Request) Context() context.Context { return r.ctx }
