package server

import (
	"context"
	"errors"
	"time"

	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	"example.test/shop/internal/catalog"
	"example.test/shop/internal/store"
	"example.test/shop/proto/shoppb"
)

type CatalogService struct {
	shoppb.UnimplementedCatalogServer
	*Core
}

type PricingService struct {
	shoppb.UnimplementedPricingServer
	*Core
}

func productPB(p store.Product) *shoppb.Product {
	return &shoppb.Product{Sku: p.SKU, Name: p.Name, PriceCents: p.PriceCents, Stock: p.Stock}
}

func (s *CatalogService) GetProduct(ctx context.Context, req *shoppb.GetProductRequest) (*shoppb.Product, error) {
	ctx, span := s.tracer.Start(ctx, "Catalog.GetProduct")
	defer span.End()
	span.SetAttr("sku", req.GetSku())

	s.warmHot()
	if p, ok := s.hotSKUs[req.GetSku()]; ok {
		return productPB(p), nil
	}
	if p, ok := s.refresher.Lookup(req.GetSku()); ok {
		return productPB(p), nil
	}
	s.meter.Add(context.Background(), "catalog_snapshot_miss", 1) // OK? — C9: a meter interface whose one implementation in sight ignores its ctx; the value wired in is out of sight (main's), so the root is reported: pass ctx is a harmless fix, but no deadline is known to be lost
	s.refresher.Trigger()

	p, err := s.loadProduct(ctx, req.GetSku())
	if err != nil {
		span.RecordError(err)
		return nil, toStatus(err)
	}
	if p.PriceCents == 0 {
		// Unpriced items get a live quote.
		raw, err := s.pricing.Raw()
		if err != nil {
			return nil, toStatus(err)
		}
		q, err := raw.Quote(s.baseCtx, &shoppb.PriceQuoteRequest{Items: []*shoppb.LineItem{{Sku: p.SKU, Qty: 1}}}) // BUG: ctxflow — B2: the raw client called with the server's lifetime
		if err != nil {
			return nil, toStatus(err)
		}
		p.PriceCents = q.GetTotalCents()
	}
	return productPB(p), nil
}

// loadProduct collapses concurrent misses for the same SKU into one store
// read. The shared read is detached from any single caller (so one caller
// giving up does not fail the others) but bounded; each caller still waits
// only as long as its own ctx allows.
func (s *CatalogService) loadProduct(ctx context.Context, sku string) (store.Product, error) {
	ch := s.sf.DoChan("product:"+sku, func() (any, error) {
		fctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 2*time.Second)
		defer cancel()
		return s.store.GetProduct(fctx, sku)
	})
	select {
	case <-ctx.Done():
		return store.Product{}, ctx.Err()
	case r := <-ch:
		if r.Err != nil {
			return store.Product{}, r.Err
		}
		return r.Val.(store.Product), nil
	}
}

var errPageFull = errors.New("page full")

func (s *CatalogService) ListProducts(req *shoppb.ListProductsRequest, stream shoppb.Catalog_ListProductsServer) error {
	ctx := stream.Context()
	limit := int(req.GetPageSize())
	sent := 0
	err := s.store.ListProducts(ctx, catalog.Canonical(req.GetCategory()), func(p store.Product) error {
		if limit > 0 && sent >= limit {
			return errPageFull
		}
		if err := stream.Send(productPB(p)); err != nil {
			return err
		}
		sent++
		return nil
	})
	if errors.Is(err, errPageFull) {
		return nil
	}
	return toStatus(err)
}

func (s *PricingService) Quote(ctx context.Context, req *shoppb.PriceQuoteRequest) (*shoppb.PriceQuote, error) {
	// Fail fast if the caller left us too little time to do anything useful.
	if dl, ok := ctx.Deadline(); ok && time.Until(dl) < minQuoteBudget {
		return nil, status.Error(codes.DeadlineExceeded, "insufficient time budget for quote")
	}
	var total int64
	for _, it := range req.GetItems() {
		if cents, ok := s.cachedUnitPrice(ctx, it.GetSku()); ok {
			total += cents * int64(it.GetQty())
			continue
		}
		p, ok := s.refresher.Lookup(it.GetSku())
		if !ok {
			var err error
			if p, err = s.store.GetProduct(ctx, it.GetSku()); err != nil {
				if errors.Is(err, store.ErrNotFound) {
					return nil, status.Errorf(codes.NotFound, "unknown sku %q", it.GetSku())
				}
				return nil, toStatus(err)
			}
		}
		if p.PriceCents <= 0 {
			return nil, status.Errorf(codes.FailedPrecondition, "sku %s has no list price", p.SKU)
		}
		total += p.PriceCents * int64(it.GetQty())
	}
	return &shoppb.PriceQuote{TotalCents: total}, nil
}

type cachedQuote struct {
	cents int64
	at    time.Time
}

const (
	quoteFresh     = 30 * time.Second
	minQuoteBudget = 5 * time.Millisecond
)

// cachedUnitPrice serves a cached price, revalidating stale entries in the
// background (stale-while-revalidate). The refresh is cache maintenance on
// the server's lifetime, not work for this caller, and it bounds itself.
func (s *PricingService) cachedUnitPrice(ctx context.Context, sku string) (int64, bool) {
	s.quoteMu.Lock()
	q, ok := s.quoteCache[sku]
	s.quoteMu.Unlock()
	if !ok {
		return 0, false
	}
	s.startQuoteSweeper(s.baseCtx)
	if time.Since(q.at) > quoteFresh {
		go s.revalidate(s.baseCtx, sku)
	}
	s.meter.Add(ctx, "quote_cache_hit", 1)
	return q.cents, true
}

func (s *PricingService) revalidate(ctx context.Context, sku string) {
	ctx, cancel := context.WithTimeout(ctx, 2*time.Second)
	defer cancel()
	p, err := s.store.GetProduct(ctx, sku)
	if err != nil {
		return
	}
	s.quoteMu.Lock()
	s.quoteCache[sku] = cachedQuote{cents: p.PriceCents, at: time.Now()}
	s.quoteMu.Unlock()
}

// startQuoteSweeper lazily starts the loop that evicts old quotes. It lives
// as long as the server, so it is handed the server's lifetime ctx.
func (s *PricingService) startQuoteSweeper(ctx context.Context) {
	s.sweepOnce.Do(func() {
		go func() {
			t := time.NewTicker(time.Minute)
			defer t.Stop()
			for {
				select {
				case <-ctx.Done():
					return
				case now := <-t.C:
					s.quoteMu.Lock()
					for sku, q := range s.quoteCache {
						if now.Sub(q.at) > 10*quoteFresh {
							delete(s.quoteCache, sku)
						}
					}
					s.quoteMu.Unlock()
				}
			}
		}()
	})
}
