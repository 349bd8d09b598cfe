package api

import (
	"context"
	"errors"
	"io"
	"time"

	"go.uber.org/zap"
	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	ordersv1 "example.test/realworld/gen/orders/v1"
	"example.test/realworld/internal/cache"
	"example.test/realworld/internal/telemetry"
)

// WatchOrder streams the status changes of one order until it reaches a
// final state or the client goes away.
func (s *Server) WatchOrder(req *ordersv1.WatchOrderRequest, stream grpc.ServerStreamingServer[ordersv1.OrderEvent]) error {
	ctx, span := telemetry.Start(stream.Context(), "api.WatchOrder") // OK
	defer span.End()
	id := req.GetOrderId()

	snap, err := s.orders.GetOrder(context.TODO(), id) // BUG: ctxbackground
	if err != nil {
		return rpcError(err)
	}
	if c, ok := ClaimsFrom(ctx); ok && !c.CanRead(snap.CustomerID) {
		return status.Error(codes.NotFound, "order not found")
	}
	if err := stream.Send(orderEvent(snap, "snapshot")); err != nil {
		return err
	}
	if isFinal(snap.Status) {
		return nil
	}

	sub := s.cache.Subscribe(ctx, cache.OrderChannel(id)) // OK
	defer sub.Close()
	if _, err := sub.Receive(ctx); err != nil {
		// Pub/sub is unavailable (Redis failover): poll the database instead.
		s.log.Warn("order change subscription failed, polling", zap.String("order_id", id), zap.Error(err))
		version := snap.Version
		for {
			time.Sleep(s.cfg.PollInterval) // OK: time.Sleep: the poll loop checks ctx.Err() at every turn (ctxless reports a sleep only in a loop that can turn without checking a ctx; precision issue)
			if err := ctx.Err(); err != nil {
				return status.FromContextError(err).Err()
			}
			o, err := s.orders.GetOrder(ctx, id)
			if err != nil {
				return rpcError(err)
			}
			if o.Version == version {
				continue
			}
			version = o.Version
			if err := stream.Send(orderEvent(o, "changed")); err != nil {
				return err
			}
			if isFinal(o.Status) {
				return nil
			}
		}
	}

	changes := sub.Channel()
	for {
		select {
		case <-ctx.Done():
			return status.FromContextError(ctx.Err()).Err()
		case <-s.baseCtx.Done(): // OK
			return status.Error(codes.Unavailable, "server is shutting down")
		case _, ok := <-changes:
			if !ok {
				return nil
			}
			o, err := s.orders.GetOrder(ctx, id) // OK
			if err != nil {
				return rpcError(err)
			}
			if err := stream.Send(orderEvent(o, "changed")); err != nil {
				return err
			}
			if isFinal(o.Status) {
				return nil
			}
		}
	}
}

// SyncCart applies cart edits as the client sends them and answers each one
// with the cart and what is out of stock.
func (s *Server) SyncCart(stream grpc.BidiStreamingServer[ordersv1.CartUpdate, ordersv1.CartState]) error {
	ctx := stream.Context()
	upd, err := stream.Recv()
	if errors.Is(err, io.EOF) {
		return nil
	}
	if err != nil {
		return err
	}
	if upd.GetCartId() == "" {
		return status.Error(codes.InvalidArgument, "the first message must name the cart")
	}

	cart, err := s.cache.LoadCart(s.baseCtx, upd.GetCartId()) // BUG: ctxflow
	if err != nil {
		return rpcError(err)
	}
	defer func() {
		// Save the cart when the client disconnects, so that the next
		// session starts where this one stopped.
		sctx := context.WithoutCancel(ctx)
		// ^BUG: detach
		if err := s.cache.SaveCart(sctx, cart); err != nil {
			s.log.Warn("save cart", zap.String("cart_id", cart.ID), zap.Error(err))
		}
	}()

	for {
		applyCartUpdate(cart, upd)
		ictx, cancel := context.WithTimeout(context.Background(), s.cfg.InventoryTimeout) // BUG: ctxbackground
		avail, err := s.inventory.Available(ictx, sortedKeys(cart.Lines))
		cancel()
		if err != nil {
			s.log.Debug("stock check failed", zap.Error(err))
		}
		if err := stream.Send(cartState(cart, avail)); err != nil {
			return err
		}
		if err := s.cache.SaveCart(ctx, cart); err != nil { // OK
			s.log.Debug("save cart", zap.Error(err))
		}
		upd, err = stream.Recv()
		if errors.Is(err, io.EOF) {
			return nil
		}
		if err != nil {
			return err
		}
	}
}
