// Package catalog holds the product catalog rules.
package catalog

import (
	"context"
	"errors"
	"fmt"
	"regexp"
	"strings"
	"time"

	"example.test/monolith/internal/platform/db"
	"example.test/monolith/internal/repository"
	"example.test/monolith/internal/repository/pgrepo"
)

// ErrInvalid is returned for malformed products.
var ErrInvalid = errors.New("catalog: invalid product")

var skuPattern = regexp.MustCompile(`^[A-Z0-9][A-Z0-9-]{2,31}$`)

// Service applies the catalog rules on top of a ProductStore.
type Service struct {
	store         repository.ProductStore
	deleteTimeout time.Duration
}

// NewService returns the catalog backed by Postgres.
func NewService(d *db.DB) *Service {
	return &Service{store: pgrepo.NewProducts(d), deleteTimeout: 10 * time.Second}
}

// NewServiceWithStore returns a catalog on an arbitrary store.
func NewServiceWithStore(store repository.ProductStore) *Service {
	return &Service{store: store, deleteTimeout: time.Second}
}

// Get returns one product.
func (s *Service) Get(ctx context.Context, sku string) (*repository.Product, error) {
	return s.store.Get(ctx, strings.ToUpper(sku))
}

// Search runs a full-text search.
func (s *Service) Search(ctx context.Context, query string, tags []string, limit int) ([]repository.Product, error) {
	query = strings.TrimSpace(query)
	if query == "" {
		return nil, fmt.Errorf("%w: empty query", ErrInvalid)
	}
	if limit <= 0 || limit > 100 {
		limit = 20
	}
	return s.store.Search(ctx, query, tags, limit)
}

// Upsert validates and stores p.
func (s *Service) Upsert(ctx context.Context, p *repository.Product) error {
	if err := validate(p); err != nil {
		return err
	}
	return s.store.Upsert(ctx, p)
}

// UpsertBatch stores new products, skipping invalid and existing ones.
func (s *Service) UpsertBatch(ctx context.Context, ps []repository.Product) (imported, skipped int, err error) {
	valid := ps[:0:0]
	for i := range ps {
		if validate(&ps[i]) == nil {
			valid = append(valid, ps[i])
		}
	}
	n, err := s.store.UpsertBatch(ctx, valid)
	return n, len(ps) - n, err
}

// Delete removes a product and its price rules.
func (s *Service) Delete(ctx context.Context, sku string) error {
	dctx, cancel := context.WithTimeout(context.Background(), s.deleteTimeout)
	defer cancel()
	return s.store.Delete(dctx, strings.ToUpper(sku))
}

// Reindex rebuilds the search index.
func (s *Service) Reindex(ctx context.Context) error {
	return s.store.Reindex(ctx)
}

func validate(p *repository.Product) error {
	p.SKU = strings.ToUpper(strings.TrimSpace(p.SKU))
	if !skuPattern.MatchString(p.SKU) {
		return fmt.Errorf("%w: bad sku %q", ErrInvalid, p.SKU)
	}
	if p.Title == "" || p.BasePriceMinor < 0 || len(p.Currency) != 3 {
		return fmt.Errorf("%w: %s", ErrInvalid, p.SKU)
	}
	return nil
}
