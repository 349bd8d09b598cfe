// Package harness is test support: its non-test files import testing. It starts a fake catalog
// server and drives it with a client, both with root contexts and no deadlines — nobody's
// request to lose and nothing in production waiting — so no rule reports here (compare the
// package prod, which does the same without being test support).
package harness

import (
	"context"
	"testing"

	"example.com/gen/catalogpb"
)

// Env is a running catalog under test.
type Env struct {
	T      testing.TB
	Client catalogpb.CatalogClient
	db     db
}

type db interface {
	Exec(ctx context.Context, q string) error
}

// Seed creates the fixtures every test needs.
func (e *Env) Seed(ids ...string) {
	for _, id := range ids {
		if _, err := e.Client.GetItem(context.Background(), &catalogpb.GetItemRequest{Id: id}); err != nil {
			e.T.Fatal(err)
		}
	}
}

// Fake is the fake server the harness starts.
type Fake struct {
	catalogpb.UnimplementedCatalogServer
	db db
}

func (f *Fake) GetItem(ctx context.Context, req *catalogpb.GetItemRequest) (*catalogpb.Item, error) {
	_ = f.db.Exec(context.Background(), "record "+req.GetId())
	go func() { _ = f.db.Exec(context.WithoutCancel(ctx), "audit") }()
	return &catalogpb.Item{Id: req.GetId()}, nil
}

// Register installs the fake.
func Register(s interface {
	RegisterService(any, any)
}, f *Fake) {
	catalogpb.RegisterCatalogServer(nil, f)
}
