// Package pricing computes customer prices and taxes.
package pricing

import (
	"context"
	"sort"
	"time"

	"example.test/monolith/internal/platform/db"
	"example.test/monolith/internal/repository"
	"example.test/monolith/internal/repository/pgrepo"
	"example.test/monolith/pkg/money"
)

// Quote is a computed price.
type Quote struct {
	SKU         string
	AmountMinor int64
	Currency    string
	Rule        string
	UpdatedAt   time.Time
}

// Engine applies price rules to base prices.
type Engine struct {
	products repository.ProductStore
	rules    repository.PriceRuleStore
	poll     time.Duration
}

// NewEngine returns the engine backed by Postgres.
func NewEngine(d *db.DB) *Engine {
	p := pgrepo.NewProducts(d)
	return &Engine{products: p, rules: p, poll: 5 * time.Second}
}

// Quote prices sku for a customer tier.
func (e *Engine) Quote(ctx context.Context, sku, tier string) (*Quote, error) {
	p, err := e.products.Get(ctx, sku)
	if err != nil {
		return nil, err
	}
	rules, err := e.rules.ForSKU(ctx, sku)
	if err != nil {
		return nil, err
	}
	q := &Quote{SKU: sku, AmountMinor: p.BasePriceMinor, Currency: p.Currency, Rule: "base", UpdatedAt: p.UpdatedAt}
	best := applicable(rules, tier)
	if best != nil {
		q.AmountMinor = money.ApplyPercentOff(p.BasePriceMinor, best.PercentOff)
		q.Rule = best.ID
	}
	return q, nil
}

// Rules returns the rules that may apply to sku.
func (e *Engine) Rules(ctx context.Context, sku string) ([]repository.PriceRule, error) {
	return e.rules.ForSKU(ctx, sku)
}

// Watch polls skus and emits the SKUs whose price record changed. The channel is closed when
// ctx is done.
func (e *Engine) Watch(ctx context.Context, skus []string) <-chan string {
	out := make(chan string)
	go func() {
		defer close(out)
		seen := map[string]time.Time{}
		t := time.NewTicker(e.poll)
		defer t.Stop()
		for {
			for _, sku := range skus {
				p, err := e.products.Get(ctx, sku)
				if err != nil {
					continue
				}
				if !p.UpdatedAt.Equal(seen[sku]) {
					seen[sku] = p.UpdatedAt
					select {
					case out <- sku:
					case <-ctx.Done():
						return
					}
				}
			}
			select {
			case <-ctx.Done():
				return
			case <-t.C:
			}
		}
	}()
	return out
}

func applicable(rules []repository.PriceRule, tier string) *repository.PriceRule {
	var match []repository.PriceRule
	for _, r := range rules {
		if r.Tier == "" || r.Tier == tier {
			match = append(match, r)
		}
	}
	if len(match) == 0 {
		return nil
	}
	sort.Slice(match, func(i, j int) bool { return match[i].PercentOff > match[j].PercentOff })
	return &match[0]
}
