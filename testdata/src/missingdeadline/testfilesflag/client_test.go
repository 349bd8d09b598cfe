package testfilesflag

import (
	"context"
	"testing"

	"example.com/gen/catalogpb"
)

func TestFetch(t *testing.T) {
	var c catalogpb.CatalogClient
	if _, err := Fetch(context.Background(), c, "1"); err != nil { // want `testfilesflag\.Fetch calls RPC CatalogClient\.GetItem with no deadline \(ctx from context\.Background\(\)\); add one with context\.WithTimeout`
		t.Fatal(err)
	}
	_, _ = c.GetItem(context.Background(), &catalogpb.GetItemRequest{}) // want `RPC CatalogClient.GetItem has no deadline \(ctx from context.Background\(\)`
}

// helper is in a test file: with -missingdeadline.tests its callers are checked.
func helper(ctx context.Context, c catalogpb.CatalogClient) {
	_, _ = c.GetItem(ctx, &catalogpb.GetItemRequest{})
}

func TestHelper(t *testing.T) {
	helper(context.TODO(), nil) // want `testfilesflag\.helper calls RPC CatalogClient\.GetItem with no deadline \(ctx from context\.TODO\(\)\); add one with context\.WithTimeout`
}
