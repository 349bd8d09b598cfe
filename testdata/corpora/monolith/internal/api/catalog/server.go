// Package catalog serves catalog.v1.CatalogService. Product, pricing and import handlers live
// on separate types that Server embeds.
package catalog

import (
	"context"
	"errors"
	"log/slog"

	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	"example.test/acme/fxrates"
	catalogv1 "example.test/monolith/gen/catalog/v1"
	domcatalog "example.test/monolith/internal/domain/catalog"
	"example.test/monolith/internal/domain/pricing"
	"example.test/monolith/internal/platform/audit"
	"example.test/monolith/internal/repository"
	"example.test/monolith/internal/service/catalogsvc"
	"example.test/monolith/pkg/legacy"
)

// Config holds catalog API settings.
type Config struct {
	PurgeScript string
	CDNPurgeURL string
}

// Server implements catalogv1.CatalogServiceServer.
type Server struct {
	*productHandlers
	*pricingHandlers
	*importHandlers
}

// NewServer wires the handler groups. lifetime is cancelled when the process shuts down.
func NewServer(lifetime context.Context, svc *catalogsvc.Service, engine *pricing.Engine, fx *fxrates.Client, settings *legacy.Client, aw *audit.Writer, cfg Config, log *slog.Logger) *Server {
	return &Server{
		productHandlers: &productHandlers{svc: svc, cfg: cfg, lifetime: lifetime, log: log},
		pricingHandlers: &pricingHandlers{engine: engine, fx: fx, settings: settings, log: log},
		importHandlers:  &importHandlers{svc: svc, audit: aw, log: log},
	}
}

// Register registers the service.
func (s *Server) Register(g *grpc.Server) { catalogv1.RegisterCatalogServiceServer(g, s) }

func productToProto(p *repository.Product) *catalogv1.Product {
	return &catalogv1.Product{
		Sku: p.SKU, Title: p.Title, Description: p.Description, Tags: p.Tags,
		BasePriceMinor: p.BasePriceMinor, Currency: p.Currency, Active: p.Active,
	}
}

func productFromProto(p *catalogv1.Product) *repository.Product {
	return &repository.Product{
		SKU: p.GetSku(), Title: p.GetTitle(), Description: p.GetDescription(), Tags: p.GetTags(),
		BasePriceMinor: p.GetBasePriceMinor(), Currency: p.GetCurrency(), Active: p.GetActive(),
	}
}

func toStatus(err error) error {
	switch {
	case errors.Is(err, repository.ErrNotFound):
		return status.Error(codes.NotFound, err.Error())
	case errors.Is(err, domcatalog.ErrInvalid):
		return status.Error(codes.InvalidArgument, err.Error())
	default:
		return status.FromContextError(err).Err()
	}
}
