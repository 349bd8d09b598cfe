// Package branch calls helpers that reach a root only on a branch of a bool parameter: a
// constant argument that excludes the branch reaches no root.
package branch

import (
	"context"

	"ctxbackground/branch/index"
	"example.com/gen/catalogpb"
)

type Server struct {
	catalogpb.UnimplementedCatalogServer
	idx *index.Index
}

func (s *Server) GetItem(ctx context.Context, req *catalogpb.GetItemRequest) (*catalogpb.Item, error) {
	if sh := s.idx.GetShard(ctx, req.GetId()); sh == nil { // never loads: silent
		return nil, nil
	}
	_ = s.idx.GetOpt(ctx, req.GetId(), false) // asks for no load: silent
	_ = s.idx.Find(ctx, req.GetId(), true)    // cached: silent
	return &catalogpb.Item{Id: req.GetId()}, nil
}

type Loader struct {
	catalogpb.UnimplementedCatalogServer
	idx *index.Index
}

func (l *Loader) GetItem(ctx context.Context, req *catalogpb.GetItemRequest) (*catalogpb.Item, error) {
	_ = l.idx.GetOrInit(ctx, req.GetId()) // want `index\.Index\.GetOrInit, called in handler Loader\.GetItem, works with context\.Background\(\)`
	return &catalogpb.Item{Id: req.GetId()}, nil
}

// Ticker advances on overflow only, and touches cached entries: neither reaches the save.
type Ticker struct {
	catalogpb.UnimplementedCatalogServer
	idx *index.Index
}

func (t *Ticker) GetItem(ctx context.Context, req *catalogpb.GetItemRequest) (*catalogpb.Item, error) {
	t.idx.Advance(ctx, index.Overflow) // silent: the save needs Periodic
	t.idx.Touch(ctx, "cached")         // silent
	t.idx.Touch(ctx, req.GetId())      // want `index\.Index\.Touch, called in handler Ticker\.GetItem, works with context\.Background\(\)`
	return &catalogpb.Item{Id: req.GetId()}, nil
}

// Saver advances periodically: the save is reached.
type Saver struct {
	catalogpb.UnimplementedCatalogServer
	idx *index.Index
}

func (s *Saver) GetItem(ctx context.Context, req *catalogpb.GetItemRequest) (*catalogpb.Item, error) {
	s.idx.Advance(ctx, index.Periodic) // want `index\.Index\.Advance, called in handler Saver\.GetItem, works with context\.Background\(\)`
	return &catalogpb.Item{Id: req.GetId()}, nil
}
