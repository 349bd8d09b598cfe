package netsvc

import (
	"context"
	"testing"
	"time"

	"example.com/gen/catalogpb"
)

// slowCatalog is a test double that sleeps to provoke its client's timeout: declared in a test
// file, it is no request scope, and its sleep no finding.
type slowCatalog struct {
	catalogpb.UnimplementedCatalogServer
	delay time.Duration
}

func (s *slowCatalog) GetItem(ctx context.Context, req *catalogpb.GetItemRequest) (*catalogpb.Item, error) {
	time.Sleep(s.delay)
	return &catalogpb.Item{Id: req.GetId()}, nil
}

func TestSlow(t *testing.T) {
	if _, err := (&slowCatalog{}).GetItem(context.Background(), &catalogpb.GetItemRequest{}); err != nil {
		t.Fatal(err)
	}
}
