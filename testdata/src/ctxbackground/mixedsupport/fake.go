package mixedsupport

import (
	"context"
	"testing"

	"example.com/gen/catalogpb"
	"example.com/gen/legacypb"
	"google.golang.org/grpc"
)

// Fake is a fake catalog for tests, declared with the helper that starts it.
type Fake struct {
	catalogpb.UnimplementedCatalogServer
	db db
}

func (f *Fake) GetItem(ctx context.Context, req *catalogpb.GetItemRequest) (*catalogpb.Item, error) { // want GetItem:"drops ctx"
	_ = f.db.Exec(context.Background(), "record "+req.GetId()) // a fake: silent
	return &catalogpb.Item{Id: req.GetId()}, nil
}

// StartFake registers the fake on s for t.
func StartFake(t testing.TB, s *grpc.Server, d db) *Fake {
	f := &Fake{db: d}
	catalogpb.RegisterCatalogServer(s, f)
	legacypb.RegisterLegacyServer(s, &Echo{db: d})
	return f
}
