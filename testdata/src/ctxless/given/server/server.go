// Package server serves accounts from its own repo, and from the store of another package.
package server

import (
	"context"

	"ctxless/given/store"
	"example.com/gen/catalogpb"
)

// Server answers from the repo and the store.
type Server struct {
	catalogpb.UnimplementedCatalogServer
	st *store.Store
	r  *repo
}

func (s *Server) GetItem(ctx context.Context, req *catalogpb.GetItemRequest) (*catalogpb.Item, error) {
	if _, err := s.r.balance(ctx, req.GetId()); err != nil {
		return nil, err
	}
	if err := s.r.transfer(ctx, "a", "b", 1); err != nil {
		return nil, err
	}
	if err := s.r.notify(ctx); err != nil {
		return nil, err
	}
	if err := s.r.audit(ctx, req.GetId()); err != nil {
		return nil, err
	}
	name, err := s.r.owner(ctx, req.GetId())
	if err != nil {
		return nil, err
	}
	_ = s.r.fresh(ctx, req.GetId())
	_, _ = s.r.settle(ctx, "localhost:5432")
	_ = s.r.rowContext(ctx)
	_ = s.r.rowCtx(ctx)
	_ = s.r.Ctx(ctx)
	_, _ = s.r.count(ctx)
	_ = s.r.copyRow(ctx, ctx, req.GetId())
	s.r.refresh(ctx)
	_, _ = s.st.Balance(ctx, req.GetId()) // another package's helper: out of reach
	return &catalogpb.Item{Id: req.GetId(), Name: name}, nil
}

func (s *Server) ListItems(req *catalogpb.ListItemsRequest, stream catalogpb.Catalog_ListItemsServer) error {
	_, err := s.r.balance(stream.Context(), req.GetCategory()) // the same drop: reported once, in balance
	return err
}

// Start runs at start-up with the server's ctx: not a request scope.
func (s *Server) Start(ctx context.Context) error {
	return s.r.warm(ctx)
}
