// Package crosspkg takes long-lived contexts from helpers of another package.
package crosspkg

import (
	"context"

	"ctxflow/lifecycle"
	"example.com/gen/catalogpb"
)

func load(ctx context.Context, id string) (*catalogpb.Item, error) { return nil, nil }

// Server holds a lifecycle manager for its whole life.
type Server struct {
	catalogpb.UnimplementedCatalogServer
	mgr *lifecycle.Manager
}

func (s *Server) GetItem(ctx context.Context, req *catalogpb.GetItemRequest) (*catalogpb.Item, error) {
	_, _ = load(lifecycle.Context(), "global") // want `crosspkg.load in handler Server.GetItem uses package-level variable lifecycle.root \(returned by lifecycle.Context\), a ctx that outlives the request`
	_, _ = load(s.mgr.Context(), "manager")    // want `crosspkg.load in handler Server.GetItem uses receiver field ctx \(returned by Manager.Context\), a ctx that outlives the request`
	r := lifecycle.NewRequest(ctx)
	_, _ = load(r.Context(), "per-request") // a struct built in the handler: fine
	return load(ctx, req.GetId())
}
