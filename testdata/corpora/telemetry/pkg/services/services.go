// Package services holds the process lifetime and a tiny service manager.
package services

import (
	"context"
	"errors"
	"sync"

	"example.test/telemetry/pkg/util/log"
)

var (
	mu     sync.Mutex
	root   context.Context
	cancel context.CancelFunc
)

// Init sets the process lifetime context. main calls it once at start-up.
func Init(parent context.Context) {
	mu.Lock()
	defer mu.Unlock()
	root, cancel = context.WithCancel(parent)
}

// Context returns the process lifetime context: it is cancelled on shutdown.
func Context() context.Context {
	mu.Lock()
	defer mu.Unlock()
	if root == nil {
		return context.Background() // OK: ctxbackground — not a request scope: fallback before Init
	}
	return root
}

// Shutdown cancels the process lifetime context.
func Shutdown() {
	mu.Lock()
	defer mu.Unlock()
	if cancel != nil {
		cancel()
	}
}

// Service is a component with a lifetime of its own.
type Service interface {
	Name() string
	Start(ctx context.Context) error
	Stop() error
}

// Manager starts services in order and stops them in reverse.
type Manager struct {
	services []Service
	started  []Service
}

// NewManager returns a manager for svcs.
func NewManager(svcs ...Service) *Manager { return &Manager{services: svcs} }

// StartAll starts every service with the lifetime ctx.
func (m *Manager) StartAll(ctx context.Context) error {
	for _, s := range m.services {
		if err := s.Start(ctx); err != nil {
			log.Error(ctx, "service failed to start", "service", s.Name(), "err", err)
			return errors.Join(err, m.StopAll())
		}
		m.started = append(m.started, s)
	}
	return nil
}

// StopAll stops the started services in reverse order.
func (m *Manager) StopAll() error {
	var errs []error
	for i := len(m.started) - 1; i >= 0; i-- {
		errs = append(errs, m.started[i].Stop())
	}
	m.started = nil
	return errors.Join(errs...)
}
