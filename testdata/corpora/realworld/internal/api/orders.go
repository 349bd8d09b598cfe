package api

import (
	"context"
	"errors"
	"net"
	"time"

	"go.opentelemetry.io/otel/attribute"
	"go.uber.org/zap"
	"golang.org/x/sync/errgroup"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	ordersv1 "example.test/realworld/gen/orders/v1"
	paymentsv1 "example.test/realworld/gen/payments/v1"
	"example.test/realworld/internal/clients"
	"example.test/realworld/internal/events"
	"example.test/realworld/internal/store"
	"example.test/realworld/internal/telemetry"
)

// CreateOrder reserves stock, authorizes the payment and stores the order.
func (s *Server) CreateOrder(ctx context.Context, req *ordersv1.CreateOrderRequest) (*ordersv1.Order, error) {
	ctx, span := telemetry.Start(ctx, "api.CreateOrder", attribute.String("customer.id", req.GetCustomerId())) // OK
	defer span.End()

	if err := validateCreate(req); err != nil {
		return nil, status.Error(codes.InvalidArgument, err.Error())
	}
	if domain := emailDomain(req.GetCustomerEmail()); domain != "" {
		if mx, err := net.LookupMX(domain); err != nil || len(mx) == 0 { // BUG: ctxless
			return nil, status.Errorf(codes.InvalidArgument, "email domain %q does not accept mail", domain)
		}
	}
	if key := req.GetIdempotencyKey(); key != "" {
		first, err := s.cache.ClaimIdempotencyKey(ctx, key, 24*time.Hour)
		if err != nil {
			s.log.Warn("idempotency key check failed", zap.Error(err))
		} else if !first {
			return nil, status.Error(codes.AlreadyExists, "an order with this idempotency key is being created")
		}
	}

	o := newOrder(req)
	if addr := req.GetShippingAddress(); addr != nil && s.rates != nil {
		rates, err := s.rates.QuoteContext(ctx, clients.RateQuery{ // OK
			Country: addr.GetCountry(), PostalCode: addr.GetPostalCode(), WeightGrams: 500, Currency: o.Currency,
		})
		if err == nil && len(rates) > 0 {
			o.TotalCents += rates[0].PriceCents
		}
	}

	resID, short, err := s.inventory.Reserve(ctx, o.ID, inventoryLines(o.Lines)) // OK
	if err != nil {
		return nil, rpcError(err)
	}
	if len(short) > 0 {
		if err := s.inventory.Release(ctx, resID); err != nil { // OK
			s.log.Warn("release partial reservation", zap.String("reservation_id", resID), zap.Error(err))
		}
		return nil, status.Errorf(codes.FailedPrecondition, "not enough stock for %v", sortedKeys(short))
	}
	o.ReservationID = resID

	pctx, cancel := context.WithTimeout(context.Background(), s.cfg.PaymentTimeout) // BUG: ctxbackground
	defer cancel()
	pay, err := s.payments.Authorize(pctx, o.ID, o.TotalCents, o.Currency, req.GetPaymentMethodToken(), req.GetIdempotencyKey())
	if err != nil {
		return nil, rpcError(err)
	}
	o.PaymentID = pay.GetId()

	if err := s.orders.CreateOrder(ctx, o, events.Outbox(events.OrderEvent("order.created", o))); err != nil { // OK
		return nil, rpcError(err)
	}
	s.relay.Kick()
	go s.events.Publish(context.WithoutCancel(ctx), events.Analytics("checkout.completed", o))
	// ^BUG: detach
	return toProto(o), nil
}

// GetOrder returns one order, from the cache unless a consistent read is asked for.
func (s *Server) GetOrder(ctx context.Context, req *ordersv1.GetOrderRequest) (*ordersv1.Order, error) {
	ctx, span := telemetry.Start(ctx, "api.GetOrder", attribute.String("order.id", req.GetOrderId()))
	defer span.End()
	id := req.GetOrderId()
	if id == "" {
		return nil, status.Error(codes.InvalidArgument, "order_id is required")
	}
	if !req.GetConsistentRead() {
		o, ok, err := s.cache.GetOrder(ctx, id) // OK
		if err != nil {
			s.log.Warn("order cache read failed", zap.String("order_id", id), zap.Error(err))
		}
		if ok {
			return toProto(o), nil
		}
	}

	readCtx := ctx
	if req.GetConsistentRead() {
		var cancel context.CancelFunc
		readCtx, cancel = context.WithTimeout(context.Background(), s.cfg.PrimaryReadTimeout) // BUG: ctxbackground
		defer cancel()
	}
	o, err := s.orders.GetOrder(readCtx, id)
	if err != nil {
		return nil, rpcError(err)
	}
	if c, ok := ClaimsFrom(ctx); ok && !c.CanRead(o.CustomerID) {
		return nil, status.Error(codes.NotFound, "order not found")
	}
	if err := s.cache.PutOrder(ctx, o); err != nil {
		s.log.Debug("order cache write failed", zap.Error(err))
	}
	go s.warmHistory(warmCtx, o.CustomerID) // BUG: ctxflow
	return toProto(o), nil
}

// ListOrders pages through the orders of a customer.
func (s *Server) ListOrders(ctx context.Context, req *ordersv1.ListOrdersRequest) (*ordersv1.ListOrdersResponse, error) {
	ctx, span := telemetry.Start(ctx, "api.ListOrders", attribute.String("customer.id", req.GetCustomerId()))
	defer span.End()
	if c, ok := ClaimsFrom(ctx); !ok || !c.CanRead(req.GetCustomerId()) {
		return nil, status.Error(codes.PermissionDenied, "not your orders")
	}

	orders, next, err := s.orders.ListOrders(s.baseCtx, req.GetCustomerId(), clampPageSize(req.GetPageSize()), req.GetPageToken()) // BUG: ctxflow
	if err != nil {
		return nil, rpcError(err)
	}
	resp := &ordersv1.ListOrdersResponse{NextPageToken: next}
	for i := range orders {
		resp.Orders = append(resp.Orders, toProto(&orders[i]))
	}
	if !req.GetIncludePaymentStatus() {
		return resp, nil
	}

	states := make([]paymentsv1.PaymentState, len(orders))
	g, gctx := errgroup.WithContext(context.Background()) // BUG: ctxbackground
	g.SetLimit(8)
	for i, o := range orders {
		if o.PaymentID == "" {
			continue
		}
		g.Go(func() error {
			p, err := s.payments.Get(gctx, o.PaymentID)
			if err != nil {
				return err
			}
			states[i] = p.GetState()
			return nil
		})
	}
	if err := g.Wait(); err != nil {
		return nil, rpcError(err)
	}
	resp.PaymentStatus = make(map[string]string, len(orders))
	for i, o := range orders {
		if o.PaymentID != "" {
			resp.PaymentStatus[o.ID] = states[i].String()
		}
	}
	return resp, nil
}

// CancelOrder cancels an unshipped order and gives its stock back.
func (s *Server) CancelOrder(ctx context.Context, req *ordersv1.CancelOrderRequest) (*ordersv1.Order, error) {
	ctx, span := telemetry.Start(ctx, "api.CancelOrder", attribute.String("order.id", req.GetOrderId()))
	defer span.End()
	id := req.GetOrderId()

	cur, err := s.orders.GetOrder(ctx, id)
	if err != nil {
		return nil, rpcError(err)
	}
	o, err := s.orders.UpdateStatus(ctx, id,
		[]store.Status{store.StatusPending, store.StatusBackordered}, store.StatusCancelled,
		events.Outbox(events.OrderEvent("order.cancelled", cur)))
	if err != nil {
		return nil, rpcError(err)
	}

	if o.ReservationID != "" {
		// Releasing stock is a compensating write: if the caller gives up now
		// the units stay held until the sweeper finds them. Finish it anyway,
		// but never for longer than five seconds.
		rctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 5*time.Second) // OK
		rerr := s.inventory.Release(rctx, o.ReservationID)
		if rerr == nil {
			rerr = s.orders.ClearReservation(rctx, o.ID)
		}
		cancel()
		if rerr != nil {
			s.log.Warn("release stock of cancelled order", zap.String("order_id", o.ID), zap.Error(rerr))
		}
	}

	if err := s.cache.InvalidateOrder(ctx, id); err != nil { // BUG: ctxbackground
		s.log.Warn("invalidate cached order", zap.String("order_id", id), zap.Error(err))
	}
	s.events.PublishBestEffort(events.Analytics("order.cancelled", o)) // BUG: ctxbackground
	s.relay.FlushAsync(ctx)
	return toProto(o), nil
}

// ConfirmPayment captures the authorized payment of an order and marks it paid.
func (s *Server) ConfirmPayment(ctx context.Context, req *ordersv1.ConfirmPaymentRequest) (*ordersv1.Order, error) {
	ctx, span := telemetry.Start(ctx, "api.ConfirmPayment", attribute.String("order.id", req.GetOrderId()))
	defer span.End()

	o, err := s.orders.GetOrder(ctx, req.GetOrderId())
	if err != nil {
		return nil, rpcError(err)
	}
	if o.Status != store.StatusPending {
		return nil, status.Errorf(codes.FailedPrecondition, "order is %s", o.Status)
	}
	if o.PaymentID == "" {
		return nil, status.Error(codes.FailedPrecondition, "order has no authorized payment")
	}

	var pay *paymentsv1.Payment
	for attempt := 0; ; attempt++ {
		pay, err = s.payments.Capture(ctx, o.PaymentID, o.TotalCents) // OK
		if err == nil || status.Code(err) != codes.Unavailable || attempt == 2 {
			break
		}
		select {
		case <-ctx.Done():
			return nil, status.FromContextError(ctx.Err()).Err()
		case <-time.After(backoff(attempt)): // OK
		}
	}
	if err != nil {
		return nil, rpcError(err)
	}
	if pay.GetId() != o.PaymentID {
		// The payments service re-issued the payment on capture.
		if err := s.orders.SetPayment(ctx, o.ID, pay.GetId()); err != nil { // BUG: ctxbackground
			return nil, rpcError(err)
		}
	}

	paid, err := s.orders.UpdateStatus(ctx, o.ID, []store.Status{store.StatusPending}, store.StatusPaid,
		events.Outbox(events.OrderEvent("order.paid", o)))
	if errors.Is(err, store.ErrConflict) {
		return nil, status.Error(codes.Aborted, "order changed while the payment was captured")
	}
	if err != nil {
		return nil, rpcError(err)
	}
	s.cache.InvalidateCustomer(paid.CustomerID) // BUG: ctxbackground
	s.events.Emit(ctx, events.Analytics("payment.captured", paid))

	go func() {
		rctx, rspan := telemetry.StartLinked(ctx, "orders.send_receipt") // BUG: ctxbackground
		defer rspan.End()
		if err := s.events.Publish(rctx, events.Receipt(paid)); err != nil {
			s.log.Warn("request receipt", zap.String("order_id", paid.ID), zap.Error(err))
		}
	}()
	return toProto(paid), nil
}
