// Package lifecycle holds the process context: it is started by main and
// cancelled when the process shuts down.
package lifecycle

import (
	"context"
	"sync"
)

var (
	mu   sync.Mutex
	proc context.Context
	stop context.CancelFunc
)

// Start derives the process context from parent and returns it.
func Start(parent context.Context) context.Context {
	mu.Lock()
	defer mu.Unlock()
	proc, stop = context.WithCancel(parent)
	return proc
}

// Context returns the process context started by Start.
func Context() context.Context {
	mu.Lock()
	defer mu.Unlock()
	return proc
}

// Stop cancels the process context.
func Stop() {
	mu.Lock()
	defer mu.Unlock()
	if stop != nil {
		stop()
	}
}
