// Package marker declares hooks a build tool rewrites: in the source they never run the
// function they are given. Run and Keep do something with theirs.
package marker

import "context"

// Inject marks a place where a test may inject a fault; the body runs only once a build tool
// has rewritten the call.
func Inject(name string, body interface{}) {}

// Hook is a no-op hook.
func Hook(name string, f func()) {}

// Run runs f.
func Run(f func()) { f() }

var kept []func()

// Keep keeps f for later.
func Keep(f func()) { kept = append(kept, f) }

// WithValue is here so that the package imports context, as such libraries do.
func WithValue(ctx context.Context) context.Context { return ctx }
