// Package lifecycle is the component framework every role is built on:
// states, start/stop, waiting until a component is ready, and the process
// lifetime context.
package lifecycle

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"sync/atomic"
	"time"

	"example.test/vectordb/internal/log"
)

// State of a component.
type State int32

const (
	Initializing State = iota
	Healthy
	Abnormal
	Stopping
	Stopped
)

func (s State) String() string {
	return [...]string{"Initializing", "Healthy", "Abnormal", "Stopping", "Stopped"}[s]
}

// ErrNotReady is returned while a component is not Healthy.
var ErrNotReady = errors.New("component not ready")

var (
	procOnce   sync.Once
	procCtx    context.Context
	procCancel context.CancelFunc
)

// Context returns the process lifetime context. It is cancelled by Shutdown.
func Context() context.Context {
	procOnce.Do(func() {
		procCtx, procCancel = context.WithCancel(context.Background()) // OK: ctxbackground — process lifetime, package-level initialisation, not a request scope
	})
	return procCtx
}

// Shutdown cancels the process context.
func Shutdown() {
	Context()
	procCancel()
}

// Component is a role of the cluster.
type Component interface {
	Name() string
	Start() error
	Stop() error
	State() State
}

// Base implements the state machine a component embeds.
type Base struct {
	name      string
	state     atomic.Int32
	ready     chan struct{}
	readyOnce sync.Once
}

// NewBase returns a Base in state Initializing.
func NewBase(name string) *Base {
	return &Base{name: name, ready: make(chan struct{})}
}

func (b *Base) Name() string  { return b.name }
func (b *Base) State() State  { return State(b.state.Load()) }
func (b *Base) Running() bool { return b.State() == Healthy }
func (b *Base) SetState(s State) {
	old := State(b.state.Swap(int32(s)))
	if s == Healthy {
		b.readyOnce.Do(func() { close(b.ready) })
	}
	if old != s {
		log.L().Info("component state changed", log.String("component", b.name), log.String("from", old.String()), log.String("to", s.String()))
	}
}

// Ready is closed once the component first became Healthy.
func (b *Base) Ready() <-chan struct{} { return b.ready }

// WaitUntilReady blocks until the component is Healthy or ctx is done.
func (b *Base) WaitUntilReady(ctx context.Context) error {
	select {
	case <-b.ready:
		return nil
	case <-ctx.Done():
		return fmt.Errorf("wait for %s: %w", b.name, ctx.Err())
	}
}

// CheckHealthy returns ErrNotReady unless the component is Healthy.
func (b *Base) CheckHealthy() error {
	if st := b.State(); st != Healthy {
		return fmt.Errorf("%s is %s: %w", b.name, st, ErrNotReady)
	}
	return nil
}

// Manager starts components in order and stops them in reverse.
type Manager struct {
	ctx    context.Context
	cancel context.CancelFunc
	mu     sync.Mutex
	comps  []Component
}

// NewManager returns a manager whose context lives until Stop.
func NewManager() *Manager {
	ctx, cancel := context.WithCancel(Context())
	return &Manager{ctx: ctx, cancel: cancel}
}

// Context is the manager's lifetime context.
func (m *Manager) Context() context.Context { return m.ctx }

// Add registers a component.
func (m *Manager) Add(c Component) {
	m.mu.Lock()
	m.comps = append(m.comps, c)
	m.mu.Unlock()
}

// Start starts every component, then waits until each one reports Healthy.
func (m *Manager) Start(readyTimeout time.Duration) error {
	m.mu.Lock()
	comps := append([]Component(nil), m.comps...)
	m.mu.Unlock()
	for _, c := range comps {
		if err := c.Start(); err != nil {
			return fmt.Errorf("start %s: %w", c.Name(), err)
		}
	}
	ctx, cancel := context.WithTimeout(context.Background(), readyTimeout) // OK: ctxbackground — start-up, not a request scope
	defer cancel()
	for _, c := range comps {
		if w, ok := c.(interface{ WaitUntilReady(context.Context) error }); ok {
			if err := w.WaitUntilReady(ctx); err != nil {
				return err
			}
		}
	}
	return nil
}

// Stop stops every component in reverse order and cancels the context.
func (m *Manager) Stop() {
	m.mu.Lock()
	comps := append([]Component(nil), m.comps...)
	m.mu.Unlock()
	for i := len(comps) - 1; i >= 0; i-- {
		if err := comps[i].Stop(); err != nil {
			log.L().Warn("stop failed", log.String("component", comps[i].Name()), log.Err(err))
		}
	}
	m.cancel()
}
