package dynamic

import (
	"context"
	"time"

	"example.com/gen/catalogpb"
	"example.com/gen/legacypb"
)

// priceSource is what the server needs of a downstream service.
type priceSource interface {
	Price(ctx context.Context, id string) error
}

// legacyPrices adapts the downstream legacy service's generated client: its work, on a fresh
// budget, is work this server does for its caller.
type legacyPrices struct{ c legacypb.LegacyClient }

func (p legacyPrices) Price(_ context.Context, id string) error { // want Price:"drops ctx"
	ctx, cancel := context.WithTimeout(context.Background(), time.Second)
	defer cancel()
	return fetch(ctx, id)
}

// mirror is the service's own client side: an adapter of the catalog client, the service this
// package serves, forwarding to another instance of it.
type mirror interface {
	Mirror(ctx context.Context, id string) error
}

type catalogMirror struct{ c catalogpb.CatalogClient }

func (m catalogMirror) Mirror(_ context.Context, id string) error { // want Mirror:"drops ctx"
	return fetch(context.Background(), id)
}

type adapted struct {
	catalogpb.UnimplementedCatalogServer
	prices priceSource
	mirror mirror
}

func (s *adapted) GetItem(ctx context.Context, req *catalogpb.GetItemRequest) (*catalogpb.Item, error) {
	_ = s.prices.Price(ctx, req.GetId())  // want `\(dynamic.legacyPrices\).Price, called in handler adapted.GetItem, works with context.Background\(\)`
	_ = s.mirror.Mirror(ctx, req.GetId()) // the service's own client: not its work
	return nil, nil
}

var _ priceSource = legacyPrices{}
var _ mirror = catalogMirror{}
