// Package funcfield is a catalog service whose handlers hand a root to a key ring of another
// package. The ring runs its key sources through function fields its constructor sets: a
// method whose ctx reaches only a source that never uses it does nothing with the root
// (silent); one whose source waits on the ctx loses the caller's deadline (reported).
package funcfield

import (
	"context"

	"example.com/gen/catalogpb"

	"ctxbackground/funcfield/keyring"
)

type Server struct {
	catalogpb.UnimplementedCatalogServer
	ring *keyring.Ring
}

func (s *Server) GetItem(ctx context.Context, req *catalogpb.GetItemRequest) (*catalogpb.Item, error) {
	if err := s.ring.Load(context.Background()); err != nil { // the ring's file source never uses its ctx: silent
		return nil, err
	}
	if err := s.ring.Sync(context.TODO()); err != nil { // want `context.TODO\(\) in handler Server.GetItem drops the caller's deadline`
		return nil, err
	}
	return &catalogpb.Item{Id: req.GetId()}, nil
}
