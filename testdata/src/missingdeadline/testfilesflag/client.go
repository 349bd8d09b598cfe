// Package testfilesflag holds the calls of the package testfiles, run with
// -missingdeadline.tests: the calls in _test.go files are reported.
package testfilesflag

import (
	"context"

	"example.com/gen/catalogpb"
)

// Fetch passes its ctx to the RPC.
func Fetch(ctx context.Context, c catalogpb.CatalogClient, id string) (*catalogpb.Item, error) { // want Fetch:`needsDeadline\(0: CatalogClient.GetItem\)`
	return c.GetItem(ctx, &catalogpb.GetItemRequest{Id: id})
}
