// Package iface is a nightly job that calls a catalog through small interfaces of its own.
// When every implementation in sight passes the ctx on to an RPC (or ignores it: an in-memory
// double), a call with a deadline-less ctx waits on the RPC forever; when one implementation
// adds a deadline of its own, the call may well have one.
package iface

import (
	"context"
	"time"

	"example.com/gen/catalogpb"
)

// Items looks items up.
type Items interface {
	Item(ctx context.Context, id string) (*catalogpb.Item, error)
}

type remoteItems struct{ c catalogpb.CatalogClient }

func (r remoteItems) Item(ctx context.Context, id string) (*catalogpb.Item, error) { // want Item:`needsDeadline\(1: CatalogClient.GetItem\)`
	return r.c.GetItem(ctx, &catalogpb.GetItemRequest{Id: id})
}

type memItems map[string]*catalogpb.Item

func (m memItems) Item(ctx context.Context, id string) (*catalogpb.Item, error) { return m[id], nil }

// Prices looks prices up; one implementation bounds its own call.
type Prices interface {
	Price(ctx context.Context, id string) (*catalogpb.Item, error)
}

type remotePrices struct{ c catalogpb.CatalogClient }

func (r remotePrices) Price(ctx context.Context, id string) (*catalogpb.Item, error) { // want Price:`needsDeadline\(1: CatalogClient.GetItem\)`
	return r.c.GetItem(ctx, &catalogpb.GetItemRequest{Id: id})
}

type boundedPrices struct{ c catalogpb.CatalogClient }

func (b boundedPrices) Price(ctx context.Context, id string) (*catalogpb.Item, error) {
	ctx, cancel := context.WithTimeout(ctx, time.Second)
	defer cancel()
	return b.c.GetItem(ctx, &catalogpb.GetItemRequest{Id: id})
}

func nightly(items Items, prices Prices, ids []string) {
	for _, id := range ids {
		_, _ = items.Item(context.Background(), id) // want `remoteItems\.Item calls RPC CatalogClient\.GetItem with no deadline \(ctx from context\.Background\(\)\); add one with context\.WithTimeout`
		_, _ = prices.Price(context.Background(), id)
	}
}

var _ = nightly
var _, _ Items = remoteItems{}, memItems{}
var _, _ Prices = remotePrices{}, boundedPrices{}
