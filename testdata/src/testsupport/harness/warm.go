package harness

import (
	"context"

	"example.com/gen/catalogpb"
)

// warm is in a file of its own that does not import testing: the package is test support all
// the same.
func warm(c catalogpb.CatalogClient, ids []string) {
	for _, id := range ids {
		_, _ = c.GetItem(context.Background(), &catalogpb.GetItemRequest{Id: id})
	}
}
