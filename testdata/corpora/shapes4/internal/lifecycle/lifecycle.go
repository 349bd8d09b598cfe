// Package lifecycle holds the process context: cancelled when the server begins to shut down.
package lifecycle

import (
	"context"
	"sync"
)

var (
	mu   sync.Mutex
	proc context.Context
	stop context.CancelFunc = func() {}
)

// Start derives the process context from parent. main calls it once.
func Start(parent context.Context) context.Context {
	mu.Lock()
	defer mu.Unlock()
	proc, stop = context.WithCancel(parent)
	return proc
}

// Context returns the process context.
func Context() context.Context {
	mu.Lock()
	defer mu.Unlock()
	return proc
}

// Stop cancels the process context.
func Stop() {
	mu.Lock()
	defer mu.Unlock()
	stop()
}
