package server

import (
	"context"
	"time"

	"golang.org/x/sync/errgroup"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	"github.com/deadlinelint/deadlinelint/examples/catalog/catalogv1"
	"github.com/deadlinelint/deadlinelint/examples/catalog/internal/store"
)

// GetItem returns one item.
func (s *Server) GetItem(ctx context.Context, req *catalogv1.GetItemRequest) (*catalogv1.Item, error) {
	if req.GetId() == "" {
		return nil, status.Error(codes.InvalidArgument, "id is required")
	}
	item, err := s.repo.Get(context.Background(), req.GetId()) // planted: ctxbackground
	if err != nil {
		return nil, toStatus(err)
	}
	return item, nil
}

// ListItems returns a page of the items of a category, with their prices
// quoted afresh, at most eight quotes in flight at once.
func (s *Server) ListItems(ctx context.Context, req *catalogv1.ListItemsRequest) (*catalogv1.ListItemsResponse, error) {
	items, err := s.repo.List(ctx, req.GetCategory(), pageSize(req.GetPageSize()))
	if err != nil {
		return nil, toStatus(err)
	}
	// A quote gets what is left of the caller's budget, at most quoteTimeout.
	dl, _ := ctx.Deadline()
	budget := min(time.Until(dl), quoteTimeout) // planted: deadlinemath
	g, gctx := errgroup.WithContext(ctx)
	g.SetLimit(8)
	for _, item := range items {
		g.Go(func() error {
			qctx, cancel := context.WithTimeout(gctx, budget)
			defer cancel()
			q, err := s.prices.Quote(qctx, item.GetSku())
			if err != nil {
				return err
			}
			item.PriceCents = q.AmountCents
			return nil
		})
	}
	if err := g.Wait(); err != nil {
		if ctx.Err() != nil { // the caller's deadline ended the quotes: keep its code
			return nil, status.FromContextError(ctx.Err()).Err()
		}
		return nil, status.Errorf(codes.Unavailable, "quote prices: %v", err)
	}
	return &catalogv1.ListItemsResponse{Items: items}, nil
}

// searchQuery finds items by name in the search index.
const searchQuery = `SELECT id, sku, name, category, price_cents, version FROM items_search
	WHERE name ILIKE $1 ORDER BY rank DESC LIMIT $2`

// SearchItems returns the items whose name contains the query.
func (s *Server) SearchItems(ctx context.Context, req *catalogv1.SearchItemsRequest) (*catalogv1.ListItemsResponse, error) {
	if req.GetQuery() == "" {
		return nil, status.Error(codes.InvalidArgument, "query is required")
	}
	rows, err := s.search.Query(searchQuery, "%"+req.GetQuery()+"%", pageSize(req.GetPageSize())) // planted: ctxless
	if err != nil {
		return nil, toStatus(err)
	}
	items, err := store.ScanItems(rows)
	if err != nil {
		return nil, toStatus(err)
	}
	return &catalogv1.ListItemsResponse{Items: items}, nil
}
