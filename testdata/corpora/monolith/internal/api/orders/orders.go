package orders

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http"

	"golang.org/x/sync/errgroup"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	ordersv1 "example.test/monolith/gen/orders/v1"
	"example.test/monolith/internal/domain/order"
	"example.test/monolith/internal/repository"
)

type fraudVerdict struct {
	Block  bool   `json:"block"`
	Reason string `json:"reason"`
}

func (s *Server) CreateOrder(ctx context.Context, req *ordersv1.CreateOrderRequest) (*ordersv1.Order, error) {
	in := order.PlaceInput{AccountID: req.GetAccountId(), Currency: req.GetCurrency(), ShipToPostcode: req.GetShipToPostcode()}
	var grams int32
	for _, it := range req.GetItems() {
		in.Items = append(in.Items, repository.LineItem{SKU: it.GetSku(), Quantity: it.GetQuantity(), UnitPriceMinor: it.GetUnitPriceMinor()})
		grams += 500 * it.GetQuantity()
	}

	body, _ := json.Marshal(map[string]any{"account": in.AccountID, "items": len(in.Items), "postcode": in.ShipToPostcode})
	resp, err := http.Post(s.cfg.FraudURL+"/v1/score", "application/json", bytes.NewReader(body)) // BUG: ctxless
	if err != nil {
		return nil, status.Errorf(codes.Unavailable, "fraud check: %v", err)
	}
	var verdict fraudVerdict
	err = json.NewDecoder(resp.Body).Decode(&verdict)
	resp.Body.Close()
	if err != nil {
		return nil, status.Errorf(codes.Unavailable, "fraud check: %v", err)
	}
	if verdict.Block {
		return nil, status.Error(codes.PermissionDenied, verdict.Reason)
	}

	quote, err := s.ship.Quote(ctx, s.cfg.WarehousePostcode, in.ShipToPostcode, grams) // OK
	if err != nil {
		return nil, status.Errorf(codes.Unavailable, "shipping quote: %v", err)
	}
	in.Items = append(in.Items, repository.LineItem{SKU: "SHIPPING-" + quote.GetCarrier(), Quantity: 1, UnitPriceMinor: quote.GetAmountMinor()})

	o, err := s.svc.Create(ctx, in) // BUG: ctxbackground
	if err != nil {
		return nil, toStatus(err)
	}
	if err := s.notify.OrderPlaced(ctx, o.AccountID, o.ID, o.TotalMinor, o.Currency); err != nil { // OK
		s.log.WarnContext(ctx, "order confirmation not sent", "order", o.ID, "err", err) // OK
	}
	return orderToProto(o), nil
}

func (s *Server) GetOrder(ctx context.Context, req *ordersv1.GetOrderRequest) (*ordersv1.Order, error) {
	o, err := s.svc.Get(ctx, req.GetId()) // OK
	if err != nil {
		return nil, toStatus(err)
	}
	p := orderToProto(o)
	if o.ShipmentID != "" && o.Status == order.StatusShipped {
		if st, err := s.ship.StatusOf(o.ShipmentID); err == nil { // BUG: ctxbackground
			p.Status = order.StatusShipped + ":" + st
		}
	}
	return p, nil
}

func (s *Server) ListOrders(ctx context.Context, req *ordersv1.ListOrdersRequest) (*ordersv1.ListOrdersResponse, error) {
	list, err := s.svc.List(ctx, req.GetAccountId(), req.GetStatus(), int(req.GetPageSize())) // OK
	if err != nil {
		return nil, toStatus(err)
	}
	resp := &ordersv1.ListOrdersResponse{Orders: make([]*ordersv1.Order, len(list))}
	g, gctx := errgroup.WithContext(context.Background()) // BUG: ctxbackground
	g.SetLimit(8)
	for i := range list {
		resp.Orders[i] = orderToProto(&list[i])
		if list[i].ShipmentID == "" {
			continue
		}
		g.Go(func() error {
			sh, err := s.ship.Get(gctx, list[i].ShipmentID)
			if err != nil {
				return fmt.Errorf("shipment %s: %w", list[i].ShipmentID, err)
			}
			resp.Orders[i].Status = list[i].Status + ":" + sh.GetStatus()
			return nil
		})
	}
	if err := g.Wait(); err != nil {
		s.log.WarnContext(ctx, "shipment enrichment incomplete", "err", err) // OK
	}
	return resp, nil
}

func (s *Server) CancelOrder(ctx context.Context, req *ordersv1.CancelOrderRequest) (*ordersv1.Order, error) {
	o, err := s.svc.Cancel(ctx, req.GetId(), req.GetReason()) // OK
	if err != nil {
		return nil, toStatus(err)
	}
	if o.ShipmentID != "" {
		if _, err := s.ship.Cancel(ctx, o.ShipmentID); err != nil { // OK
			s.log.WarnContext(ctx, "shipment not cancelled; hold released anyway", "order", o.ID, "err", err)
			if err := s.svc.ReleaseHold(o.ID); err != nil { // BUG: ctxbackground
				return nil, toStatus(err)
			}
			return orderToProto(o), nil
		}
	}
	if err := s.svc.ReleaseHold(o.ID); err != nil { // OK
		return nil, toStatus(err)
	}
	return orderToProto(o), nil
}
