// Package zerolog is a stand-in for the logger of that path: Event.Ctx keeps the ctx for the
// hooks, which take it back with GetCtx — so only its name tells that it is read.
package zerolog

import (
	"context"
	"fmt"
)

// Event is a line being built.
type Event struct {
	ctx    context.Context
	fields []any
}

// Hook sees every event before it is written.
var Hook func(e *Event)

// Info starts a line at the info level.
func Info() *Event { return &Event{} }

// Ctx keeps ctx in the event for the hooks.
func (e *Event) Ctx(ctx context.Context) *Event {
	e.ctx = ctx
	return e
}

// GetCtx returns the event's ctx.
func (e *Event) GetCtx() context.Context { return e.ctx }

// Msg writes the line.
func (e *Event) Msg(msg string) {
	if Hook != nil {
		Hook(e)
	}
	fmt.Println(msg, e.fields)
}
