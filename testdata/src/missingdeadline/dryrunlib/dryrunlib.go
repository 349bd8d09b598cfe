// Package dryrunlib is a library of shard moves whose exported functions take no ctx and call
// the catalog with context.Background(): convenience APIs, reported at their callers. Each
// makes its RPC only when a parameter says so (apply); with apply false it only plans.
package dryrunlib

import (
	"context"

	"example.com/gen/catalogpb"
)

// Move moves a shard; with apply false it is a dry run that makes no RPC.
func Move(c catalogpb.CatalogClient, id string, apply bool) error { // want Move:`noCtxAPI\(context.Background\(\): CatalogClient.GetItem, when \[#2 = true\]\)`
	if apply {
		_, err := c.GetItem(context.Background(), &catalogpb.GetItemRequest{Id: id})
		return err
	}
	return nil
}

// Plan plans a move: Move with apply false, no RPC.
func Plan(c catalogpb.CatalogClient, id string) error { return Move(c, id, false) }

// Sync always moves.
func Sync(c catalogpb.CatalogClient, id string) error { return Move(c, id, true) } // want Sync:`noCtxAPI\(context.Background\(\): dryrunlib.Move → CatalogClient.GetItem\)`

// Touch moves when asked to apply, or to force: two ways down to the RPC, which need neither
// parameter alone.
func Touch(c catalogpb.CatalogClient, id string, apply, force bool) error { // want Touch:`noCtxAPI\(context.Background\(\): dryrunlib.Move → CatalogClient.GetItem\)$`
	if apply {
		return Move(c, id, true)
	}
	if force {
		return Move(c, id, true)
	}
	return nil
}

// Mover moves shards with its own client.
type Mover struct{ C catalogpb.CatalogClient }

// Set moves when apply is set.
func (m *Mover) Set(id string, apply bool) error { // want Set:`noCtxAPI\(context.Background\(\): CatalogClient.GetItem, when \[#2 = true\]\)`
	if apply {
		_, err := m.C.GetItem(context.Background(), &catalogpb.GetItemRequest{Id: id})
		return err
	}
	return nil
}
