// Package deeper imports no context package: its functions reach the root of events.Legacy
// only through its fact, and its importers learn of that only through deeper's own facts.
package deeper

import "ctxbackground/nocontext/events"

// Check validates a name and records a bad one.
func Check(name string) error { // want Check:"drops ctx: events.Legacy: context.TODO\\(\\) at .*/events.go:22"
	if name == "" {
		return events.Legacy("empty name")
	}
	return nil
}

// Length does nothing with a ctx, anywhere.
func Length(name string) int { return len(name) }
