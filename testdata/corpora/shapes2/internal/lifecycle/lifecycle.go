// Package lifecycle holds the process's lifetime context.
package lifecycle

import "context"

var (
	root   context.Context = context.Background()
	cancel context.CancelFunc
)

// Start sets the process context; main calls it once.
func Start(ctx context.Context) {
	root, cancel = context.WithCancel(ctx)
}

// Context returns the process's lifetime context.
func Context() context.Context { return root }

// Stop ends the process context.
func Stop() {
	if cancel != nil {
		cancel()
	}
}
