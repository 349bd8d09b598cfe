// Package testfiles calls clients without a deadline from _test.go files: not reported unless
// -missingdeadline.tests is set (see the package testfilesflag).
package testfiles

import (
	"context"

	"example.com/gen/catalogpb"
)

// Fetch passes its ctx to the RPC.
func Fetch(ctx context.Context, c catalogpb.CatalogClient, id string) (*catalogpb.Item, error) { // want Fetch:`needsDeadline\(0: CatalogClient.GetItem\)`
	return c.GetItem(ctx, &catalogpb.GetItemRequest{Id: id})
}
