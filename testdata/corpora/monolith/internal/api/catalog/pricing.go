package catalog

import (
	"context"
	"errors"
	"log/slog"

	"golang.org/x/sync/errgroup"
	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	"example.test/acme/fxrates"
	catalogv1 "example.test/monolith/gen/catalog/v1"
	"example.test/monolith/internal/domain/pricing"
	"example.test/monolith/internal/repository"
	"example.test/monolith/pkg/legacy"
	"example.test/monolith/pkg/money"
)

var errCDNSlow = errors.New("cdn purge exceeded its budget")

type pricingHandlers struct {
	catalogv1.UnimplementedCatalogServiceServer

	engine   *pricing.Engine
	fx       *fxrates.Client
	settings *legacy.Client
	log      *slog.Logger
}

func (h *pricingHandlers) tierOf(ctx context.Context, accountID string) string {
	if accountID == "" {
		return ""
	}
	tier, err := h.settings.GetContext(ctx, "tier."+accountID)
	if err != nil {
		return ""
	}
	return tier
}

func (h *pricingHandlers) GetPrice(ctx context.Context, req *catalogv1.GetPriceRequest) (*catalogv1.Price, error) {
	var (
		q     *pricing.Quote
		rate  = 1.0
		tier  = h.tierOf(ctx, req.GetAccountId()) // OK
		quote = req.GetCurrency()
	)
	// legacy.Lookup is a package-level function with a LookupContext twin; the ctxless rule
	// names methods with an MContext twin, so whether a function pair counts is not settled.
	if _, err := legacy.Lookup("pricing-overrides"); err != nil { // OK?
		h.log.DebugContext(ctx, "no pricing overrides directory entry", "err", err)
	}
	g, gctx := errgroup.WithContext(ctx) // OK
	g.Go(func() error {
		var err error
		q, err = h.engine.Quote(gctx, req.GetSku(), tier) // OK
		return err
	})
	if quote != "" {
		g.Go(func() error {
			p, err := h.engine.Quote(gctx, req.GetSku(), "")
			if err != nil {
				return err
			}
			if p.Currency == quote {
				return nil
			}
			rate, err = h.fx.Rate(gctx, p.Currency, quote) // OK
			return err
		})
	}
	if err := g.Wait(); err != nil {
		return nil, toStatus(err)
	}
	out := &catalogv1.Price{Sku: q.SKU, AmountMinor: q.AmountMinor, Currency: q.Currency, Rule: q.Rule}
	if quote != "" && quote != q.Currency {
		out.AmountMinor, out.Currency = money.Scale(q.AmountMinor, rate), quote
	}
	return out, nil
}

func (h *pricingHandlers) ListPriceRules(ctx context.Context, req *catalogv1.ListPriceRulesRequest) (*catalogv1.ListPriceRulesResponse, error) {
	rules, err := h.engine.Rules(ctx, req.GetSku()) // OK
	if err != nil {
		return nil, toStatus(err)
	}
	if _, err := h.settings.Do("TOUCH", "price_rules:"+req.GetSku()); err != nil { // BUG: ctxless
		h.log.DebugContext(ctx, "rules touch failed", "err", err)
	}
	return &catalogv1.ListPriceRulesResponse{Rules: rulesToProto(rules)}, nil
}

func (h *pricingHandlers) WatchPrices(req *catalogv1.WatchPricesRequest, stream grpc.ServerStreamingServer[catalogv1.Price]) error {
	ctx := stream.Context()
	if len(req.GetSkus()) == 0 {
		return status.Error(codes.InvalidArgument, "skus required")
	}
	for sku := range h.engine.Watch(ctx, req.GetSkus()) {
		q, err := h.engine.Quote(context.TODO(), sku, "") // BUG: ctxbackground
		if err != nil {
			h.log.WarnContext(ctx, "price watch quote failed", "sku", sku, "err", err)
			continue
		}
		if err := stream.Send(&catalogv1.Price{Sku: q.SKU, AmountMinor: q.AmountMinor, Currency: q.Currency, Rule: q.Rule}); err != nil {
			return err
		}
	}
	return ctx.Err()
}

func rulesToProto(rules []repository.PriceRule) []*catalogv1.PriceRule {
	out := make([]*catalogv1.PriceRule, 0, len(rules))
	for _, r := range rules {
		out = append(out, &catalogv1.PriceRule{Id: r.ID, Kind: r.Kind, PercentOff: r.PercentOff})
	}
	return out
}
