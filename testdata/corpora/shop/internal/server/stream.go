package server

import (
	"context"
	"errors"
	"io"
	"sort"
	"time"

	"example.test/shop/proto/shoppb"
)

// WatchOrders streams status changes for a customer's orders.
func (s *OrderService) WatchOrders(req *shoppb.WatchOrdersRequest, stream shoppb.Orders_WatchOrdersServer) error {
	since := s.now()
	for {
		for _, e := range s.events.since(req.GetCustomerId(), since) {
			if err := stream.Send(&shoppb.OrderEvent{OrderId: e.OrderID, Status: e.Status, AtUnix: e.At.Unix()}); err != nil {
				return err
			}
			since = e.At
		}
		time.Sleep(s.pollEvery) // BUG: ctxless — B5: the poll never looks at the stream's ctx
	}
}

// SyncCart keeps a cart in step with the client and answers every change
// with a fresh total.
func (s *OrderService) SyncCart(stream shoppb.Orders_SyncCartServer) error {
	ctx := stream.Context()
	cart := map[string]int32{}
	for {
		op, err := stream.Recv()
		if errors.Is(err, io.EOF) {
			return nil
		}
		if err != nil {
			return err
		}
		cart[op.GetSku()] = max(0, cart[op.GetSku()]+op.GetDelta())

		skus := make([]string, 0, len(cart))
		for sku, q := range cart {
			if q > 0 {
				skus = append(skus, sku)
			}
		}
		sort.Strings(skus)
		items := make([]*shoppb.LineItem, 0, len(skus))
		for _, sku := range skus {
			items = append(items, &shoppb.LineItem{Sku: sku, Qty: cart[sku]})
		}
		total, err := s.pricing.Quote(ctx, items)
		if err != nil {
			return toStatus(err)
		}
		if err := stream.Send(&shoppb.CartState{Items: items, TotalCents: total}); err != nil {
			return err
		}
	}
}

// TailOrders is the push-based replacement for WatchOrders: it subscribes to
// the event log and sends a heartbeat so idle connections are kept alive.
func (s *OrderService) TailOrders(req *shoppb.WatchOrdersRequest, stream shoppb.Orders_TailOrdersServer) error {
	ctx := stream.Context()
	ch, unsubscribe := s.events.subscribe(req.GetCustomerId())
	stop := context.AfterFunc(ctx, unsubscribe)
	defer stop()
	defer unsubscribe()

	// Replay what we already have, then follow live events.
	for _, e := range s.events.since(req.GetCustomerId(), time.Time{}) {
		if err := stream.Send(&shoppb.OrderEvent{OrderId: e.OrderID, Status: e.Status, AtUnix: e.At.Unix()}); err != nil {
			return err
		}
	}

	hb := time.NewTicker(15 * time.Second)
	defer hb.Stop()
	for {
		select {
		case <-ctx.Done():
			return toStatus(ctx.Err())
		case <-hb.C:
			if err := stream.Send(&shoppb.OrderEvent{Status: "HEARTBEAT", AtUnix: s.now().Unix()}); err != nil {
				return err
			}
		case e, ok := <-ch:
			if !ok {
				return nil
			}
			if err := stream.Send(&shoppb.OrderEvent{OrderId: e.OrderID, Status: e.Status, AtUnix: e.At.Unix()}); err != nil {
				return err
			}
		}
	}
}
