// Package lifecycle holds the process lifetime context.
package lifecycle

import (
	"context"
	"sync"
)

var (
	mu     sync.Mutex
	root   context.Context
	cancel context.CancelFunc
)

// Init makes ctx the parent of everything that lives as long as the process.
func Init(ctx context.Context) {
	mu.Lock()
	defer mu.Unlock()
	root, cancel = context.WithCancel(ctx)
}

// Context returns the process lifetime context. Init must have been called.
func Context() context.Context {
	mu.Lock()
	defer mu.Unlock()
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

// Outlive returns ctx without its cancellation and deadline: the change
// events and audit rows a request starts must be written even after the
// client has hung up, and they are small single-row writes.
func Outlive(ctx context.Context) context.Context {
	return context.WithoutCancel(ctx)
}
