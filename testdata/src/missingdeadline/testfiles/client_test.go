package testfiles

import (
	"context"
	"testing"

	"example.com/gen/catalogpb"
)

func TestFetch(t *testing.T) {
	var c catalogpb.CatalogClient
	if _, err := Fetch(context.Background(), c, "1"); err != nil {
		t.Fatal(err)
	}
	_, _ = c.GetItem(context.Background(), &catalogpb.GetItemRequest{})
}

// helper is in a test file too: no fact, no report.
func helper(ctx context.Context, c catalogpb.CatalogClient) {
	_, _ = c.GetItem(ctx, &catalogpb.GetItemRequest{})
}

func TestHelper(t *testing.T) {
	helper(context.TODO(), nil)
}
