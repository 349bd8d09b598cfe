// Package api is a gRPC service whose handlers reach the ledger's roots, several times each.
package api

import (
	"context"

	"ctxbackground/oneroot/ledger"
	"example.com/gen/catalogpb"
)

type Server struct {
	catalogpb.UnimplementedCatalogServer
	book *ledger.Book
}

func (s *Server) GetItem(ctx context.Context, req *catalogpb.GetItemRequest) (*catalogpb.Item, error) {
	if _, err := s.book.Balance(req.GetId()); err != nil { // want `ledger\.Book\.Balance, called in handler Server\.GetItem, works with context\.Background\(\); pass ctx down`
		return nil, err
	}
	if err := s.book.Audit(ctx, req.GetId()); err != nil { // suppressed at its root
		return nil, err
	}
	if _, err := s.book.Balance(req.GetId() + "-hold"); err != nil { // the same root, the same handler: related
		return nil, err
	}
	return &catalogpb.Item{Id: req.GetId()}, nil
}

func (s *Server) ListItems(req *catalogpb.ListItemsRequest, stream catalogpb.Catalog_ListItemsServer) error {
	// Balance's root is reported at GetItem's call already; Settle's two are new here, and
	// both are named.
	return s.book.Transfer(stream.Context(), req.GetCategory(), "house") // want `ledger\.Book\.Transfer, called in handler Server\.ListItems, works with context\.TODO\(\) and context\.Background\(\); pass stream\.Context\(\) down`
}
