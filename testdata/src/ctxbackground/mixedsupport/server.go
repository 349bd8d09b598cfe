// Package mixedsupport is a production catalog server that also holds a helper for other
// packages' tests (mockconn.go imports testing). Its registered server, declared in a file that
// does not import testing, is a request scope all the same; the fake in fake.go, declared with
// the helpers that take a *testing.T, is not.
package mixedsupport

import (
	"context"

	"example.com/gen/catalogpb"
	"google.golang.org/grpc"
)

type db interface {
	Exec(ctx context.Context, q string) error
}

// Server serves the catalog.
type Server struct {
	catalogpb.UnimplementedCatalogServer
	db db
}

func (s *Server) GetItem(ctx context.Context, req *catalogpb.GetItemRequest) (*catalogpb.Item, error) {
	if err := s.db.Exec(context.Background(), "select "+req.GetId()); err != nil { // want `context.Background\(\) in handler Server.GetItem drops the caller's deadline`
		return nil, err
	}
	return &catalogpb.Item{Id: req.GetId()}, nil
}

// Register installs the server.
func Register(s *grpc.Server, srv *Server) { catalogpb.RegisterCatalogServer(s, srv) }
