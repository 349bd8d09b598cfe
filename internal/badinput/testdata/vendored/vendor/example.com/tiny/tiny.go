// Package tiny is a vendored dependency.
package tiny

import "context"

// Root returns a context for background work.
func Root() context.Context { return context.Background() }
