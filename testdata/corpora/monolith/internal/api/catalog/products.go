package catalog

import (
	"context"
	"log/slog"
	"net/http"
	"net/url"
	"os/exec"
	"strings"
	"time"

	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	catalogv1 "example.test/monolith/gen/catalog/v1"
	"example.test/monolith/internal/platform/auth"
	"example.test/monolith/internal/service/catalogsvc"
)

type productHandlers struct {
	svc      *catalogsvc.Service
	cfg      Config
	lifetime context.Context
	log      *slog.Logger
}

func (h *productHandlers) backgroundCtx() context.Context { return h.lifetime }

func (h *productHandlers) GetProduct(ctx context.Context, req *catalogv1.GetProductRequest) (*catalogv1.Product, error) {
	p, err := h.svc.Product(ctx, req.GetSku()) // OK
	if err != nil {
		return nil, toStatus(err)
	}
	var account string
	if c, ok := auth.ClaimsFrom(ctx); ok {
		account = c.AccountID
	}
	go h.svc.TrackView(h.backgroundCtx(), p.SKU, account) // BUG: ctxflow
	return productToProto(p), nil
}

func (h *productHandlers) SearchProducts(ctx context.Context, req *catalogv1.SearchProductsRequest) (*catalogv1.SearchProductsResponse, error) {
	ps, err := h.svc.Search(ctx, req.GetQuery(), req.GetTags(), int(req.GetLimit())) // BUG: ctxbackground
	if err != nil {
		return nil, toStatus(err)
	}
	resp := &catalogv1.SearchProductsResponse{}
	for i := range ps {
		resp.Products = append(resp.Products, productToProto(&ps[i]))
	}
	return resp, nil
}

func (h *productHandlers) UpsertProduct(ctx context.Context, req *catalogv1.UpsertProductRequest) (*catalogv1.Product, error) {
	if req.GetProduct() == nil {
		return nil, status.Error(codes.InvalidArgument, "product is required")
	}
	p := productFromProto(req.GetProduct())
	if err := h.svc.Upsert(ctx, p); err != nil { // OK
		return nil, toStatus(err)
	}
	// The CDN keeps serving the old page until it is purged; the purge must go out even if the
	// editor closes the tab, but the CDN API answers within a second or not at all.
	pctx, cancel := context.WithTimeoutCause(context.WithoutCancel(ctx), 2*time.Second, errCDNSlow) // OK
	go func() {
		defer cancel()
		if err := h.purgeCDN(pctx, p.SKU); err != nil { // OK
			h.log.WarnContext(pctx, "cdn purge failed", "sku", p.SKU, "err", err)
		}
	}()
	return productToProto(p), nil
}

func (h *productHandlers) DeleteProduct(ctx context.Context, req *catalogv1.DeleteProductRequest) (*catalogv1.DeleteProductResponse, error) {
	sku := strings.ToUpper(req.GetSku())
	if c, ok := auth.ClaimsFrom(ctx); !ok || !c.HasScope("catalog:admin") {
		return nil, status.Error(codes.PermissionDenied, "catalog:admin required")
	}
	if err := h.svc.Delete(ctx, sku); err != nil { // BUG: ctxbackground
		return nil, toStatus(err)
	}
	if h.cfg.PurgeScript != "" {
		out, err := exec.Command(h.cfg.PurgeScript, sku).CombinedOutput() // BUG: ctxless
		if err != nil {
			h.log.WarnContext(ctx, "purge script failed", "sku", sku, "output", string(out), "err", err)
		}
	}
	go h.purgeCDN(context.WithoutCancel(ctx), sku)
	// ^BUG: detach
	return &catalogv1.DeleteProductResponse{Deleted: true}, nil
}

func (h *productHandlers) purgeCDN(ctx context.Context, sku string) error {
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, h.cfg.CDNPurgeURL+"?path="+url.QueryEscape("/p/"+sku), nil)
	if err != nil {
		return err
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return err
	}
	return resp.Body.Close()
}
