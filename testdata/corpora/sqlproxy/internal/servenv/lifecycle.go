package servenv

import (
	"context"
	"sync"
)

var (
	processCtx, processCancel = context.WithCancel(context.Background())

	onTermMu sync.Mutex
	onTerm   []func()
)

// ProcessContext returns the context of the whole process: it is cancelled
// by Shutdown, when the daemon is asked to stop.
func ProcessContext() context.Context {
	return processCtx
}

// OnTerm registers f to run when the process shuts down.
func OnTerm(f func()) {
	onTermMu.Lock()
	defer onTermMu.Unlock()
	onTerm = append(onTerm, f)
}

// Shutdown cancels the process context and runs the OnTerm hooks.
func Shutdown() {
	processCancel()
	onTermMu.Lock()
	hooks := onTerm
	onTerm = nil
	onTermMu.Unlock()
	for i := len(hooks) - 1; i >= 0; i-- {
		hooks[i]()
	}
}
