// Package catalogsvc is the application layer of the catalog API.
package catalogsvc

import (
	"context"
	"encoding/json"
	"log/slog"
	"time"

	"example.test/monolith/internal/domain/catalog"
	"example.test/monolith/internal/platform/cache"
	"example.test/monolith/internal/platform/events"
	"example.test/monolith/internal/repository"
)

// Service orchestrates catalog operations.
type Service struct {
	catalog *catalog.Service
	cache   *cache.Cache
	events  *events.Publisher
	log     *slog.Logger
}

// New returns the service.
func New(c *catalog.Service, cc *cache.Cache, ev *events.Publisher, log *slog.Logger) *Service {
	return &Service{catalog: c, cache: cc, events: ev, log: log}
}

func productKey(sku string) string { return "product:" + sku }

// Product returns a product, from cache when possible.
func (s *Service) Product(ctx context.Context, sku string) (*repository.Product, error) {
	if b, ok, err := s.cache.Get(ctx, productKey(sku)); err == nil && ok {
		var p repository.Product
		if json.Unmarshal(b, &p) == nil {
			return &p, nil
		}
	}
	p, err := s.catalog.Get(ctx, sku)
	if err != nil {
		return nil, err
	}
	if b, err := json.Marshal(p); err == nil {
		_ = s.cache.Set(ctx, productKey(sku), b, 10*time.Minute)
	}
	return p, nil
}

// Search runs a product search.
func (s *Service) Search(ctx context.Context, query string, tags []string, limit int) ([]repository.Product, error) {
	return s.catalog.Search(ctx, query, tags, limit)
}

// Upsert stores a product, drops its cache entry and announces the change.
func (s *Service) Upsert(ctx context.Context, p *repository.Product) error {
	if err := s.catalog.Upsert(ctx, p); err != nil {
		return err
	}
	if err := s.cache.Delete(ctx, productKey(p.SKU)); err != nil {
		s.log.WarnContext(ctx, "product cache delete failed", "sku", p.SKU, "err", err)
	}
	return s.events.Publish(ctx, "product.upserted", p.SKU, p)
}

// Delete removes a product.
func (s *Service) Delete(ctx context.Context, sku string) error {
	if err := s.catalog.Delete(ctx, sku); err != nil {
		return err
	}
	return s.cache.Delete(ctx, productKey(sku))
}

// UpsertBatch imports new products.
func (s *Service) UpsertBatch(ctx context.Context, ps []repository.Product) (int, int, error) {
	return s.catalog.UpsertBatch(ctx, ps)
}

// RefreshSearchIndex rebuilds the search index.
func (s *Service) RefreshSearchIndex(ctx context.Context) error {
	start := time.Now()
	err := s.catalog.Reindex(ctx)
	s.log.InfoContext(ctx, "search index refreshed", "elapsed", time.Since(start), "err", err)
	return err
}

// TrackView records a product page view for the recommendations pipeline.
func (s *Service) TrackView(ctx context.Context, sku, accountID string) {
	if err := s.events.Publish(ctx, "product.viewed", sku, map[string]string{"sku": sku, "account": accountID}); err != nil {
		s.log.DebugContext(ctx, "product.viewed dropped", "err", err)
	}
}
