// Package optional is a CLI whose deadline is the user's to set: a -timeout flag that defaults
// to none is applied only when given. Next to it, the same shape where the condition is not
// about a duration, and a command with no deadline at all.
package optional

import (
	"context"
	"flag"
	"time"

	"example.com/gen/catalogpb"
)

var timeout = flag.Duration("timeout", 0, "give up after this long (0: never)")

// Get applies the user's timeout when there is one.
func Get(c catalogpb.CatalogClient, id string) (*catalogpb.Item, error) {
	ctx := context.Background()
	if *timeout > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, *timeout)
		defer cancel()
	}
	return c.GetItem(ctx, &catalogpb.GetItemRequest{Id: id})
}

// getUnless applies a deadline unless told to be quick: the condition is no timeout's.
func getUnless(c catalogpb.CatalogClient, id string, quick bool) (*catalogpb.Item, error) {
	ctx := context.Background()
	if !quick {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, time.Second)
		defer cancel()
	}
	return c.GetItem(ctx, &catalogpb.GetItemRequest{Id: id}) // want `RPC CatalogClient\.GetItem has no deadline \(ctx from context\.Background\(\)\); add one with context\.WithTimeout`
}

// getForever has no deadline on any path.
func getForever(c catalogpb.CatalogClient, id string) (*catalogpb.Item, error) {
	ctx := context.Background()
	return c.GetItem(ctx, &catalogpb.GetItemRequest{Id: id}) // want `RPC CatalogClient\.GetItem has no deadline \(ctx from context\.Background\(\)\); add one with context\.WithTimeout`
}
