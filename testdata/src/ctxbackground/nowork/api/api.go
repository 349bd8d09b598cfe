// Package api is a gRPC service calling the render helpers.
package api

import (
	"context"
	"database/sql"

	"ctxbackground/nowork/decorated"
	"ctxbackground/nowork/logs"
	"ctxbackground/nowork/render"
	"ctxbackground/nowork/tenant"
	"example.com/gen/catalogpb"
)

type Server struct {
	catalogpb.UnimplementedCatalogServer
	db *sql.DB
}

func (s *Server) GetItem(ctx context.Context, req *catalogpb.GetItemRequest) (*catalogpb.Item, error) {
	name := render.Hash([]string{req.GetId()})                 // render.Text does no work with the root: silent
	_ = logs.New()                                             // the root is only handed around a cycle of loggers: silent
	decorated.Prefetch(name)                                   // want `decorated\.Prefetch, called in handler Server\.GetItem, works with context\.Background\(\)`
	logs.Report(name)                                          // want `logs\.Report, called in handler Server\.GetItem, works with context\.Background\(\)`
	if err := render.Store(s.db, []string{name}); err != nil { // want `render\.Store, called in handler Server\.GetItem, works with context\.Background\(\); pass ctx down`
		return nil, err
	}
	return &catalogpb.Item{Id: name}, nil
}

func (s *Server) ListItems(req *catalogpb.ListItemsRequest, stream catalogpb.Catalog_ListItemsServer) error {
	ids, err := tenant.FromOrgID(req.GetCategory()) // every resolver only reads the ctx: silent
	if err != nil {
		return err
	}
	if _, err := tenant.LimitOf(ids[0]); err != nil { // want `tenant\.LimitOf, called in handler Server\.ListItems, works with context\.TODO\(\); pass stream\.Context\(\) down`
		return err
	}
	if _, err := tenant.Rename(ids[0], "x"); err != nil { // the root only carries the tenant: silent
		return err
	}
	return tenant.Purge(s.db, ids[0]) // want `tenant\.Purge, called in handler Server\.ListItems, works with context\.Background\(\); pass stream\.Context\(\) down`
}
