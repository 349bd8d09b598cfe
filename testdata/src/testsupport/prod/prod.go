// Package prod does what the package harness does, in production code: ctxbackground, detach
// and missingdeadline each report once (analyzers.TestTestSupport).
package prod

import (
	"context"

	"example.com/gen/catalogpb"
)

type db interface {
	Exec(ctx context.Context, q string) error
}

func warm(c catalogpb.CatalogClient, ids []string) {
	for _, id := range ids {
		_, _ = c.GetItem(context.Background(), &catalogpb.GetItemRequest{Id: id})
	}
}

// Server is a real server.
type Server struct {
	catalogpb.UnimplementedCatalogServer
	db db
}

func (s *Server) GetItem(ctx context.Context, req *catalogpb.GetItemRequest) (*catalogpb.Item, error) {
	_ = s.db.Exec(context.Background(), "record "+req.GetId())
	go func() { _ = s.db.Exec(context.WithoutCancel(ctx), "audit") }()
	return &catalogpb.Item{Id: req.GetId()}, nil
}

// Register installs the server.
func Register(s *Server) { catalogpb.RegisterCatalogServer(nil, s) }
