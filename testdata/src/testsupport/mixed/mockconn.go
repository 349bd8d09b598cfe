package mixed

import (
	"context"
	"testing"

	"example.com/gen/catalogpb"
)

// MockPeer answers a Server's peer calls in other packages' tests.
type MockPeer struct {
	catalogpb.UnimplementedCatalogServer
	T  testing.TB
	db db
}

func (m *MockPeer) GetItem(ctx context.Context, req *catalogpb.GetItemRequest) (*catalogpb.Item, error) {
	_ = m.db.Exec(context.Background(), "record "+req.GetId())
	go func() { _ = m.db.Exec(context.WithoutCancel(ctx), "audit") }()
	return &catalogpb.Item{Id: req.GetId()}, nil
}

// StartPeer registers a mock peer for a test.
func StartPeer(t *testing.T, m *MockPeer) {
	catalogpb.RegisterCatalogServer(nil, m)
	_, _ = (&Server{}).peer.GetItem(context.Background(), &catalogpb.GetItemRequest{})
}
