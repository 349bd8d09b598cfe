// Package knownas is a service whose handlers build errors with apierr: InvalidArgument's
// root is used only on a branch that never runs (silent); Wrapped's is used for work.
package knownas

import (
	"context"
	"errors"

	"ctxbackground/knownas/apierr"
	"example.com/gen/catalogpb"
)

var errBadID = errors.New("bad id")

// Server serves the catalog.
type Server struct {
	catalogpb.UnimplementedCatalogServer
	load func(ctx context.Context, id string) error
}

func (s *Server) GetItem(ctx context.Context, req *catalogpb.GetItemRequest) (*catalogpb.Item, error) {
	if req.GetId() == "" {
		return nil, apierr.InvalidArgument("no id") // silent
	}
	if req.GetId() == "!" {
		return nil, apierr.Conflict("taken") // silent
	}
	if req.GetId() == "#" {
		return nil, apierr.Precondition("stale") // silent
	}
	if req.GetId() == "?" {
		return nil, apierr.Aborted("retry") // want `apierr\.Aborted, called in handler Server\.GetItem, works with context\.TODO\(\)`
	}
	if req.GetId() == "-" {
		return nil, apierr.Wrapped(errBadID) // want `apierr\.Wrapped, called in handler Server\.GetItem, works with context\.TODO\(\)`
	}
	if err := s.load(ctx, req.GetId()); err != nil {
		return nil, err
	}
	return &catalogpb.Item{Id: req.GetId()}, nil
}
