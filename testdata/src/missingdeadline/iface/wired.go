package iface

import "context"

// Jobs whose interface-typed fields hold only values the package builds: only those values'
// methods can run, whatever else implements the interface.

// pricer is wired only to remotePrices: boundedPrices' deadline is never on its way.
type pricer struct {
	prices Prices
}

func newPricer(r remotePrices) *pricer { return &pricer{prices: r} }

func (p *pricer) refresh(ids []string) {
	for _, id := range ids {
		_, _ = p.prices.Price(context.Background(), id) // want `remotePrices\.Price calls RPC CatalogClient\.GetItem with no deadline \(ctx from context\.Background\(\)\)`
	}
}

// offline is wired only to the in-memory items: remoteItems' RPC is never on its way.
type offline struct {
	items Items
}

func newOffline() *offline { return &offline{items: memItems{}} }

func (o *offline) warm(ids []string) {
	for _, id := range ids {
		_, _ = o.items.Item(context.Background(), id)
	}
}

var _ = []any{newPricer, (*pricer).refresh, newOffline, (*offline).warm}
