// Package mixed is a production catalog server that also holds a helper for other packages'
// tests (mockconn.go imports testing): the package is test support, but its registered server
// and what its handlers call are production code, where every rule reports as in the package
// prod; warm, which no handler reaches, stays test support (compare the package harness).
package mixed

import (
	"context"

	"example.com/gen/catalogpb"
)

type db interface {
	Exec(ctx context.Context, q string) error
}

// Server is a real server.
type Server struct {
	catalogpb.UnimplementedCatalogServer
	db   db
	peer catalogpb.CatalogClient
}

func (s *Server) GetItem(ctx context.Context, req *catalogpb.GetItemRequest) (*catalogpb.Item, error) {
	_ = s.db.Exec(context.Background(), "record "+req.GetId())
	go func() { _ = s.db.Exec(context.WithoutCancel(ctx), "audit") }()
	s.mirror(req.GetId())
	return &catalogpb.Item{Id: req.GetId()}, nil
}

// mirror copies the item to the peer, with no deadline.
func (s *Server) mirror(id string) {
	_, _ = s.peer.GetItem(context.Background(), &catalogpb.GetItemRequest{Id: id})
}

// Register installs the server.
func Register(s *Server) { catalogpb.RegisterCatalogServer(nil, s) }
