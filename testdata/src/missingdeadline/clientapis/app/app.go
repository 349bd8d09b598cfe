// Package app calls the hand-written store client; run with
// -missingdeadline.clientapis=missingdeadline/clientapis/store.Client.Get,
// missingdeadline/clientapis/store.Lookup, ...store.Getter.Get and ...store.Typed.Load.
package app

import (
	"context"
	"time"

	"missingdeadline/clientapis/store"
)

// Run is the job's entry point.
func Run(c *store.Client, g store.Getter, typed *store.Typed[int]) {
	ctx := context.Background()
	_, _ = c.Get(context.Background(), "a")        // want `RPC Client.Get has no deadline \(ctx from context.Background\(\)`
	_, _ = store.Lookup(context.Background(), "b") // want `RPC store.Lookup has no deadline \(ctx from context.Background\(\)`
	_, _ = g.Get(context.Background(), "c")        // want `RPC Getter.Get has no deadline`
	_, _ = typed.Load(context.Background(), "d")   // want `RPC Typed.Load has no deadline`
	_, _ = Sync(context.Background(), c)           // want `app\.Sync calls RPC Client\.Get with no deadline \(ctx from context\.Background\(\)\); add one with context\.WithTimeout`

	bounded, cancel := context.WithTimeout(ctx, time.Second)
	defer cancel()
	_, _ = c.Get(bounded, "e")
	_, _ = Sync(bounded, c)
}

// Sync passes its ctx to the store.
func Sync(ctx context.Context, c *store.Client) (string, error) { // want Sync:`needsDeadline\(0: Client.Get\)`
	return c.Get(ctx, "sync")
}
