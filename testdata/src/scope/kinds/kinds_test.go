package kinds

import (
	"context"
	"testing"

	"example.com/gen/catalogpb"
)

// fakeCatalog is a test double of the service: not a request scope.
type fakeCatalog struct {
	catalogpb.UnimplementedCatalogServer
}

func (f *fakeCatalog) GetItem(ctx context.Context, req *catalogpb.GetItemRequest) (*catalogpb.Item, error) {
	return nil, nil
}

// replay is marked: checked even in a test file.
//
//deadlinelint:scope
func replay(ctx context.Context, msg []byte) error { // want `marked replay ctx=ctx`
	return nil
}

func TestFake(t *testing.T) {
	_, _ = (&fakeCatalog{}).GetItem(context.Background(), nil)
	_ = replay(context.Background(), nil)
}
