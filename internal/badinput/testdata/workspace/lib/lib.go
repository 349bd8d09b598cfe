// Package lib is one module of the workspace.
package lib

import "context"

// Detached returns a fresh root context.
func Detached() context.Context { return context.Background() }
