// Package health reports a component's state; its ctx only carries the trace to the log line.
package health

import (
	"context"
	"log/slog"
)

// State is a component's state code.
type State int

// Component answers whether it serves.
type Component interface {
	State(ctx context.Context) State
}

// Node is the production component.
type Node struct{ code State }

// State logs the code with the caller's trace and returns it from memory.
func (n *Node) State(ctx context.Context) State {
	slog.DebugContext(ctx, "state", "code", n.code)
	return n.code
}
