package mixed

import (
	"context"

	"example.com/gen/catalogpb"
)

// warm is called by no handler: in a test-support package it is test support.
func warm(c catalogpb.CatalogClient, ids []string) {
	for _, id := range ids {
		_, _ = c.GetItem(context.Background(), &catalogpb.GetItemRequest{Id: id})
	}
}
