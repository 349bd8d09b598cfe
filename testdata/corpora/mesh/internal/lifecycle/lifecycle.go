// Package lifecycle holds the process's lifetime context, cancelled on shutdown.
package lifecycle

import (
	"context"
	"sync"
)

var (
	mu     sync.Mutex
	root                      = context.Background()
	cancel context.CancelFunc = func() {}
)

// Init derives the process context from parent. Call it once from main.
func Init(parent context.Context) {
	mu.Lock()
	defer mu.Unlock()
	root, cancel = context.WithCancel(parent)
}

// Context returns the process context.
func Context() context.Context {
	mu.Lock()
	defer mu.Unlock()
	return root
}

// Shutdown cancels the process context.
func Shutdown() {
	mu.Lock()
	defer mu.Unlock()
	cancel()
}
