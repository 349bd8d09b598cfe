// Package api is a gRPC service calling the render helpers.
package api

import (
	"context"
	"database/sql"

	"ctxbackground/nowork/render"
	"example.com/gen/catalogpb"
)

type Server struct {
	catalogpb.UnimplementedCatalogServer
	db *sql.DB
}

func (s *Server) GetItem(ctx context.Context, req *catalogpb.GetItemRequest) (*catalogpb.Item, error) {
	name := render.Hash([]string{req.GetId()})                 // render.Text does no work with the root: silent
	if err := render.Store(s.db, []string{name}); err != nil { // want `render\.Store, called in handler Server\.GetItem, works with context\.Background\(\); pass ctx down`
		return nil, err
	}
	return &catalogpb.Item{Id: name}, nil
}
