package server

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"net/http"
	"time"

	"golang.org/x/sync/errgroup"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	"example.test/shop/internal/retry"
	"example.test/shop/internal/store"
	"example.test/shop/proto/shoppb"
)

type OrderService struct {
	shoppb.UnimplementedOrdersServer
	*Core
}

func newID() string {
	b := make([]byte, 8)
	_, _ = rand.Read(b)
	return hex.EncodeToString(b)
}

func itemsFromPB(in []*shoppb.LineItem) []store.LineItem {
	out := make([]store.LineItem, 0, len(in))
	for _, it := range in {
		out = append(out, store.LineItem{SKU: it.GetSku(), Qty: it.GetQty()})
	}
	return out
}

func orderPB(o store.Order) *shoppb.Order {
	items := make([]*shoppb.LineItem, 0, len(o.Items))
	for _, it := range o.Items {
		items = append(items, &shoppb.LineItem{Sku: it.SKU, Qty: it.Qty})
	}
	return &shoppb.Order{Id: o.ID, CustomerId: o.CustomerID, Items: items, Status: o.Status, TotalCents: o.TotalCents}
}

func (s *OrderService) PlaceOrder(ctx context.Context, req *shoppb.PlaceOrderRequest) (*shoppb.Order, error) {
	ctx, span := s.tracer.Start(ctx, "Orders.PlaceOrder")
	defer span.End()

	if key := req.GetIdempotencyKey(); key != "" {
		if o, ok := s.idem.get(key); ok {
			return o, nil
		}
		o, found, err := s.store.FindByIdempotencyKey(ctx, key)
		if err != nil {
			return nil, toStatus(err)
		}
		if found {
			return orderPB(o), nil
		}
	}

	items := itemsFromPB(req.GetItems())
	var total int64
	g, gctx := errgroup.WithContext(ctx)
	g.Go(func() error {
		for _, it := range items {
			if _, err := s.store.GetProduct(gctx, it.SKU); err != nil {
				return fmt.Errorf("sku %s: %w", it.SKU, err)
			}
		}
		return nil
	})
	g.Go(func() error {
		t, err := s.pricing.Quote(gctx, req.GetItems())
		total = t
		return err
	})
	if err := g.Wait(); err != nil {
		span.RecordError(err)
		return nil, toStatus(err)
	}

	if err := s.store.ReserveStock(ctx, items); err != nil {
		return nil, status.Errorf(codes.FailedPrecondition, "reserve stock: %v", err) // BUG: statusmask — B3: ReserveStock's error, which may be the deadline, made FailedPrecondition
	}

	o := store.Order{
		ID:             newID(),
		CustomerID:     req.GetCustomerId(),
		Items:          items,
		Status:         "PLACED",
		TotalCents:     total,
		IdempotencyKey: req.GetIdempotencyKey(),
		CreatedAt:      s.now(),
	}
	if err := s.store.CreateOrder(ctx, o); err != nil {
		// Give the stock back. The request ctx is probably why we failed, so
		// the compensation gets its own short budget.
		cctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 2*time.Second)
		defer cancel()
		if rerr := s.store.ReleaseStock(cctx, items); rerr != nil {
			s.log.ErrorContext(cctx, "stock leak: release failed", "order", o.ID, "err", rerr)
		}
		return nil, toStatus(err)
	}

	s.onOrderPlaced(ctx, o)
	s.events.append(store.OrderEvent{OrderID: o.ID, CustomerID: o.CustomerID, Status: o.Status, At: o.CreatedAt})
	if err := s.audit.Add(ctx, store.AuditEvent{Actor: o.CustomerID, Action: "order.placed", Ref: o.ID, At: o.CreatedAt}); err != nil {
		s.log.WarnContext(ctx, "audit event dropped", "order", o.ID, "err", err)
	}
	if !s.submit(func(jctx context.Context) { s.sendConfirmation(jctx, o) }) {
		s.log.WarnContext(ctx, "confirmation queue full", "order", o.ID)
	}
	go s.pushToWarehouse(context.WithoutCancel(ctx), o)
	// ^BUG: detach — B6: detached with no bound and no reason; the push retries for minutes

	out := orderPB(o)
	if key := req.GetIdempotencyKey(); key != "" {
		s.idem.put(key, out)
	}
	return out, nil
}

// sendConfirmation runs on a worker after the response was sent.
func (s *OrderService) sendConfirmation(ctx context.Context, o store.Order) {
	ctx, cancel := context.WithTimeout(ctx, 5*time.Second)
	defer cancel()
	body, _ := json.Marshal(map[string]any{"order": o.ID, "customer": o.CustomerID})
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, s.warehouseURL+"/notify", bytes.NewReader(body))
	if err != nil {
		return
	}
	resp, err := s.httpClient.Do(req)
	if err != nil {
		s.log.WarnContext(ctx, "confirmation failed", "order", o.ID, "err", err)
		return
	}
	resp.Body.Close()
}

var errRetryHTTP = fmt.Errorf("retryable http status")

func (s *OrderService) pushToWarehouse(ctx context.Context, o store.Order) {
	body, _ := json.Marshal(o)
	policy := retry.Policy{Attempts: 8, Base: 200 * time.Millisecond, Max: 30 * time.Second}
	_, err := retry.Do(ctx, policy, func(err error) bool { return true }, func(ctx context.Context) (int, error) {
		req, err := http.NewRequestWithContext(ctx, http.MethodPost, s.warehouseURL+"/orders", bytes.NewReader(body))
		if err != nil {
			return 0, err
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			return 0, err
		}
		defer resp.Body.Close()
		if resp.StatusCode >= 500 {
			return resp.StatusCode, errRetryHTTP
		}
		return resp.StatusCode, nil
	})
	if err != nil {
		s.log.ErrorContext(ctx, "warehouse push failed", "order", o.ID, "err", err)
	}
}

func (s *OrderService) GetOrder(ctx context.Context, req *shoppb.GetOrderRequest) (*shoppb.Order, error) {
	o, err := s.loadOrder(req.GetId()) // BUG: ctxbackground — B1: loadOrder reads the order with context.TODO()
	if err != nil {
		return nil, toStatus(err)
	}

	dctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), time.Second)
	go func() {
		defer cancel()
		_ = s.store.SaveAudit(dctx, []store.AuditEvent{{Actor: o.CustomerID, Action: "order.viewed", Ref: o.ID, At: s.now()}})
	}()
	return orderPB(o), nil
}

func (s *OrderService) loadOrder(id string) (store.Order, error) {
	if id == "" {
		return store.Order{}, status.Error(codes.InvalidArgument, "id required")
	}
	return s.store.GetOrder(context.TODO(), id)
}

// cancelOp carries one CancelOrder call through its steps.
type cancelOp struct {
	ctx   context.Context
	s     *OrderService
	order store.Order
}

func (op *cancelOp) load(id string) error {
	o, err := op.s.store.GetOrder(op.ctx, id)
	if err != nil {
		return err
	}
	op.order = o
	return nil
}

func (op *cancelOp) release() error {
	return op.s.store.ReleaseStock(op.ctx, op.order.Items)
}

func (s *OrderService) CancelOrder(ctx context.Context, req *shoppb.GetOrderRequest) (*shoppb.Order, error) {
	key := "order:" + req.GetId()
	if err := s.locks.Lock(ctx, key); err != nil {
		return nil, toStatus(err)
	}
	defer func() {
		// Always release the lock, even if the caller is gone by now.
		uctx, cancel := context.WithTimeout(context.Background(), time.Second)
		defer cancel()
		if err := s.locks.Unlock(uctx, key); err != nil {
			s.log.Error("unlock failed", "key", key, "err", err)
		}
	}()

	op := &cancelOp{ctx: ctx, s: s}
	if err := op.load(req.GetId()); err != nil {
		return nil, toStatus(err)
	}
	if op.order.Status == "CANCELLED" {
		return orderPB(op.order), nil
	}
	if err := op.release(); err != nil {
		if ctx.Err() != nil {
			return nil, status.FromContextError(ctx.Err()).Err()
		}
		return nil, status.Errorf(codes.Unavailable, "release stock: %v", err)
	}
	op.order.Status = "CANCELLED"
	payload, err := json.Marshal(op.order)
	if err != nil {
		return nil, status.Errorf(codes.Internal, "encode: %v", err)
	}

	s.events.append(store.OrderEvent{OrderID: op.order.ID, CustomerID: op.order.CustomerID, Status: op.order.Status, At: s.now()})
	go s.notifyRefund(context.WithoutCancel(ctx), payload)
	return orderPB(op.order), nil
}

// notifyRefund tells the payments system about the cancellation. It runs
// after the response, so it gets its own budget.
func (s *OrderService) notifyRefund(ctx context.Context, payload []byte) {
	ctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, s.warehouseURL+"/refunds", bytes.NewReader(payload))
	if err != nil {
		return
	}
	resp, err := s.httpClient.Do(req)
	if err != nil {
		s.log.WarnContext(ctx, "refund notification failed", "err", err)
		return
	}
	resp.Body.Close()
}
