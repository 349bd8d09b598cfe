// Package concretetwin calls ctx-less methods of a concrete type of another package whose
// Context (or Ctx) twins it could call instead. A twin that refers to its ctx only to carry its values
// (a lookup logging its miss) loses no deadline beside the ctx-less method: no finding. A twin
// that dials with it does.
package concretetwin

import (
	"context"

	"ctxless/concretetwin/peers"
	"example.com/gen/catalogpb"
)

type Server struct {
	catalogpb.UnimplementedCatalogServer
	pool  *peers.Pool
	own   *local
	store *peers.Store
}

// local is the package's own: its twin reads the request's id and nothing else.
type local struct{ seen map[string]bool }

type idKey struct{}

func (l *local) Mark(id string) { l.MarkContext(context.Background(), id) }

func (l *local) MarkContext(ctx context.Context, id string) {
	tag, _ := ctx.Value(idKey{}).(string)
	l.seen[tag+id] = true
}

func (s *Server) GetItem(ctx context.Context, req *catalogpb.GetItemRequest) (*catalogpb.Item, error) {
	if _, ok := s.pool.Lookup(req.GetId()); !ok {
		s.own.Mark(req.GetId())
	}
	c, err := s.pool.Open(req.GetId()) // want `Pool\.Open in handler Server\.GetItem cannot be cancelled with the request; use OpenContext\(ctx, \.\.\.\)`
	if err != nil {
		return nil, err
	}
	defer c.Close()
	if _, err := s.store.Get(req.GetId()); err != nil { // want `Store\.Get in handler Server\.GetItem cannot be cancelled with the request; use GetCtx\(ctx, \.\.\.\)`
		return nil, err
	}
	_ = s.store.Len() // LenCtx only logs with its ctx: silent
	return &catalogpb.Item{Id: req.GetId()}, nil
}
