package inventory

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"net/url"
	"strconv"
	"sync"
	"time"

	"connectrpc.com/connect"
	"golang.org/x/sync/errgroup"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/metadata"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/proto"

	inventoryv1 "example.test/mature/gen/inventory/v1"
	pricingv1 "example.test/mature/gen/pricing/v1"
	"example.test/mature/internal/audit"
	"example.test/mature/internal/events"
	"example.test/mature/internal/platform/retry"
	"example.test/mature/internal/platform/rpcx"
	"example.test/mature/internal/store"
)

// storeError maps a repository error to a gRPC status, keeping context errors
// recognisable to the client.
func storeError(ctx context.Context, err error) error {
	if errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
		return status.FromContextError(err).Err()
	}
	slog.ErrorContext(ctx, "storage error", "err", err)
	return status.Error(codes.Internal, "storage error")
}

// GetItem returns one item, from the cache when possible.
func (s *Server) GetItem(ctx context.Context, req *inventoryv1.GetItemRequest) (*inventoryv1.GetItemResponse, error) {
	sku := req.GetSku()
	if sku == "" {
		return nil, status.Error(codes.InvalidArgument, "sku is required")
	}
	if md, ok := metadata.FromIncomingContext(ctx); ok { // OK
		s.log.DebugContext(ctx, "get item", "sku", sku, "client", md.Get("x-client-name")) // OK
	}
	key := itemKey(sku)
	if b, err := s.cache.GetContext(ctx, key); err == nil { // OK
		if it, err := decodeItem(b); err == nil {
			return &inventoryv1.GetItemResponse{Item: toProto(it)}, nil
		}
	}

	lctx := ctx
	if req.GetPrefetch() {
		lctx = context.Background() // BUG: ctxbackground
	}
	it, err := s.store.GetItem(lctx, sku)
	switch {
	case errors.Is(err, store.ErrNotFound):
		return nil, status.Errorf(codes.NotFound, "sku %q not found", sku)
	case err != nil:
		return nil, storeError(ctx, err)
	}
	if it.UnitPriceCents == 0 {
		resp, err := s.prices.GetPrice(ctx, connect.NewRequest(&pricingv1.GetPriceRequest{Sku: sku})) // OK
		if err == nil {
			it.UnitPriceCents = resp.Msg.GetUnitPriceCents()
		}
	}
	if b, err := encodeItem(it); err == nil {
		_ = s.cache.SetContext(lctx, key, b, s.cfg.CacheTTL)
	}
	return &inventoryv1.GetItemResponse{Item: toProto(it)}, nil
}

// ListItems pages through one warehouse.
func (s *Server) ListItems(ctx context.Context, req *inventoryv1.ListItemsRequest) (*inventoryv1.ListItemsResponse, error) {
	size := clampPageSize(req.GetPageSize())
	pageKey := fmt.Sprintf("inventory:list:%s:%d:%s", req.GetWarehouse(), size, req.GetPageToken())
	if b, err := s.cache.Get(pageKey); err == nil { // BUG: ctxless
		var cached inventoryv1.ListItemsResponse
		if proto.Unmarshal(b, &cached) == nil {
			return &cached, nil
		}
	}

	var items []store.Item
	err := retry.Do(ctx, retry.Default, func(ctx context.Context) error { // OK
		var err error
		items, err = s.store.ListItems(ctx, req.GetWarehouse(), size+1, req.GetPageToken()) // OK
		return err
	})
	if err != nil {
		return nil, storeError(ctx, err)
	}
	resp := &inventoryv1.ListItemsResponse{}
	if len(items) > size {
		items = items[:size]
		resp.NextPageToken = items[size-1].SKU
	}
	for _, it := range items {
		resp.Items = append(resp.Items, toProto(it))
	}
	if b, err := proto.Marshal(resp); err == nil {
		_ = s.cache.SetContext(ctx, pageKey, b, 30*time.Second) // OK
	}
	return resp, nil
}

// reservation is one ReserveStock call on its way to the store.
type reservation struct {
	ctx     context.Context
	sku     string
	qty     int64
	orderID string
}

func (s *Server) reserve(op reservation) (store.Reservation, error) {
	return s.store.Reserve(op.ctx, op.sku, op.qty, op.orderID) // OK
}

// ReserveStock holds stock for an order at the current unit price.
func (s *Server) ReserveStock(ctx context.Context, req *inventoryv1.ReserveStockRequest) (*inventoryv1.ReserveStockResponse, error) {
	if req.GetSku() == "" || req.GetQuantity() <= 0 || req.GetOrderId() == "" {
		return nil, status.Error(codes.InvalidArgument, "sku, a positive quantity and order_id are required")
	}

	var unitPrice int64
	for attempt := 1; ; attempt++ {
		pctx, cancel := context.WithTimeout(context.Background(), s.cfg.PriceTimeout) // BUG: ctxbackground
		resp, err := s.prices.GetPrice(pctx, connect.NewRequest(&pricingv1.GetPriceRequest{Sku: req.GetSku()}))
		cancel()
		if err == nil {
			unitPrice = resp.Msg.GetUnitPriceCents()
			break
		}
		if attempt >= s.cfg.PriceAttempts || connect.CodeOf(err) != connect.CodeUnavailable {
			return nil, status.Errorf(codes.Unavailable, "pricing unavailable: %v", err)
		}
		select {
		case <-ctx.Done():
			return nil, status.FromContextError(ctx.Err()).Err()
		case <-time.After(time.Duration(attempt) * 50 * time.Millisecond): // OK
		}
	}

	op := reservation{ctx: ctx, sku: req.GetSku(), qty: req.GetQuantity(), orderID: req.GetOrderId()}
	res, err := s.reserve(op) // OK
	switch {
	case errors.Is(err, store.ErrNotFound):
		return nil, status.Errorf(codes.NotFound, "sku %q not found", req.GetSku())
	case errors.Is(err, store.ErrInsufficientStock):
		return nil, status.Errorf(codes.FailedPrecondition, "not enough stock of %q", req.GetSku())
	case err != nil:
		return nil, storeError(ctx, err)
	}

	claims, _ := rpcx.ClaimsFrom(ctx)        // OK
	s.audit.RecordDetached(ctx, audit.Entry{ // OK
		Actor:    claims.Subject,
		Action:   "reserve",
		Resource: res.ID,
		Detail:   map[string]string{"sku": res.SKU, "quantity": strconv.FormatInt(res.Quantity, 10), "order": req.GetOrderId()},
	})
	if err := s.events.Publish(ctx, events.Event{Type: "reserved", SKU: res.SKU, Quantity: res.Remaining}); err != nil { // OK
		s.log.WarnContext(ctx, "publish reservation", "reservation", res.ID, "err", err)
	}
	return &inventoryv1.ReserveStockResponse{ReservationId: res.ID, Remaining: res.Remaining, UnitPriceCents: unitPrice}, nil
}

// ReleaseStock returns a reservation's stock.
func (s *Server) ReleaseStock(ctx context.Context, req *inventoryv1.ReleaseStockRequest) (*inventoryv1.ReleaseStockResponse, error) {
	id := req.GetReservationId()
	if id == "" {
		return nil, status.Error(codes.InvalidArgument, "reservation_id is required")
	}

	// A release compensates a failed checkout. The order service often gives up
	// before we answer, and a lost release strands stock until the reconciler
	// expires the reservation, so it gets a short budget of its own.
	rctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 3*time.Second) // OK
	defer cancel()
	res, err := s.store.Release(rctx, id)
	switch {
	case errors.Is(err, store.ErrNotFound):
		return nil, status.Errorf(codes.NotFound, "reservation %q not found", id)
	case err != nil:
		return nil, storeError(ctx, err)
	}
	s.audit.RecordDetached(ctx, audit.Entry{Action: "release", Resource: id, Detail: map[string]string{"reason": req.GetReason()}}) // OK

	// Subscribers rely on seeing every release.
	ectx := context.WithoutCancel(ctx) // BUG: detach
	go func() {
		evt := events.Event{Type: "released", SKU: res.SKU, Quantity: res.Remaining}
		if err := s.events.Publish(ectx, evt); err != nil {
			s.log.WarnContext(ectx, "publish release", "reservation", id, "err", err)
		}
	}()
	return &inventoryv1.ReleaseStockResponse{}, nil
}

// AdjustStock applies a manual stock correction.
func (s *Server) AdjustStock(ctx context.Context, req *inventoryv1.AdjustStockRequest) (*inventoryv1.AdjustStockResponse, error) {
	if req.GetSku() == "" || req.GetDelta() == 0 {
		return nil, status.Error(codes.InvalidArgument, "sku and a non-zero delta are required")
	}
	known, err := s.store.SKUExists(ctx, req.GetSku()) // BUG: ctxbackground
	if err != nil {
		return nil, storeError(ctx, err)
	}
	if !known {
		return nil, status.Errorf(codes.NotFound, "sku %q not found", req.GetSku())
	}
	qty, err := s.store.Adjust(ctx, req.GetSku(), req.GetDelta(), req.GetReason()) // OK
	switch {
	case errors.Is(err, store.ErrInsufficientStock):
		return nil, status.Errorf(codes.FailedPrecondition, "adjustment would make stock of %q negative", req.GetSku())
	case err != nil:
		return nil, storeError(ctx, err)
	}
	claims, _ := rpcx.ClaimsFrom(ctx)
	entry := audit.Entry{
		Actor:    claims.Subject,
		Action:   "adjust",
		Resource: req.GetSku(),
		Detail:   map[string]string{"delta": strconv.FormatInt(req.GetDelta(), 10), "reason": req.GetReason()},
	}
	if err := s.audit.Record(ctx, entry); err != nil { // OK
		return nil, storeError(ctx, err)
	}
	if it, err := s.store.GetItem(ctx, req.GetSku()); err == nil {
		if err := s.search.Index(s.lifetime, it.SKU, it.Name, it.Warehouse); err != nil { // BUG: ctxflow
			s.log.WarnContext(ctx, "search index update failed", "sku", it.SKU, "err", err)
		}
	}
	return &inventoryv1.AdjustStockResponse{Quantity: qty}, nil
}

// CheckAvailability returns the unreserved stock of each requested SKU,
// falling back to the supplier for SKUs that are out of stock here.
func (s *Server) CheckAvailability(ctx context.Context, req *inventoryv1.CheckAvailabilityRequest) (*inventoryv1.CheckAvailabilityResponse, error) {
	skus := req.GetSkus()
	if len(skus) == 0 || len(skus) > maxBatch {
		return nil, status.Errorf(codes.InvalidArgument, "between 1 and %d skus are required", maxBatch)
	}
	avail := make(map[string]int64, len(skus))
	var mu sync.Mutex
	g, gctx := errgroup.WithContext(context.Background()) // BUG: ctxbackground
	g.SetLimit(8)
	for _, sku := range skus {
		g.Go(func() error {
			n, err := s.store.AvailableQuantity(gctx, req.GetWarehouse(), sku)
			if err != nil {
				return err
			}
			mu.Lock()
			avail[sku] = n
			mu.Unlock()
			return nil
		})
	}
	if err := g.Wait(); err != nil {
		return nil, storeError(ctx, err)
	}

	if s.cfg.SupplierURL != "" {
		for sku, n := range avail {
			if n > 0 {
				continue
			}
			resp, err := http.Get(s.cfg.SupplierURL + "/v1/stock/" + url.PathEscape(sku)) // BUG: ctxless
			if err != nil {
				s.log.WarnContext(ctx, "supplier stock lookup failed", "sku", sku, "err", err)
				continue
			}
			var st struct {
				Available int64 `json:"available"`
			}
			if json.NewDecoder(resp.Body).Decode(&st) == nil {
				avail[sku] = st.Available
			}
			resp.Body.Close()
		}
	}
	return &inventoryv1.CheckAvailabilityResponse{Available: avail}, nil
}
