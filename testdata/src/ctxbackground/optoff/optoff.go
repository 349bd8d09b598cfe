// Package optoff is a service whose handlers build errors with faults: those made with events
// switched off by the options written at the call do no work with their root (silent); the
// others may write an event with it.
package optoff

import (
	"context"

	"ctxbackground/optoff/faults"
	"example.com/gen/catalogpb"
)

// Server serves the catalog.
type Server struct {
	catalogpb.UnimplementedCatalogServer
	load func(ctx context.Context, id string) error
}

func (s *Server) GetItem(ctx context.Context, req *catalogpb.GetItemRequest) (*catalogpb.Item, error) {
	err := s.load(ctx, req.GetId())
	switch req.GetId() {
	case "":
		return nil, faults.Convert(err) // silent
	case "?":
		return nil, faults.Lookup(req.GetId()) // silent
	case "!":
		return nil, faults.Deny("no") // silent
	case "a":
		return nil, faults.Loud(err) // want `faults\.Loud, called in handler Server\.GetItem, works with context\.TODO\(\)`
	case "b":
		return nil, faults.Undecided(err) // want `faults\.Undecided, called in handler Server\.GetItem, works with context\.TODO\(\)`
	case "c":
		return nil, faults.Handed(err, faults.WithoutEvent()) // want `faults\.Handed, called in handler Server\.GetItem, works with context\.TODO\(\)`
	case "d":
		return nil, faults.Maybe(err, true) // want `faults\.Maybe, called in handler Server\.GetItem, works with context\.TODO\(\)`
	case "e":
		return nil, faults.Leaky(err) // want `faults\.Leaky, called in handler Server\.GetItem, works with context\.TODO\(\)`
	case "g":
		return nil, faults.Hush("quiet") // silent
	case "h":
		return nil, faults.Reopened("loud") // want `faults\.Reopened, called in handler Server\.GetItem, works with context\.Background\(\)`
	case "f":
		return nil, faults.Written(err) // want `faults\.Written, called in handler Server\.GetItem, works with context\.TODO\(\)`
	}
	if err != nil {
		return nil, faults.E(ctx, faults.WithMsg(err.Error()))
	}
	return &catalogpb.Item{Id: req.GetId()}, nil
}
