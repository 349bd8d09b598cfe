// Package context is a stub of golang.org/x/net/context, the pre-Go 1.7 home of package
// context: its types are aliases of the standard library's, its functions thin wrappers.
package context

import "context"

// Context is the standard library's.
type Context = context.Context

// Background returns the standard library's root context.
func Background() Context { return context.Background() }

// TODO returns the standard library's TODO context.
func TODO() Context { return context.TODO() }
