package shipping

import (
	"context"
	"net"
	"net/url"

	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	shippingv1 "example.test/monolith/gen/shipping/v1"
	"example.test/monolith/pkg/retry"
)

func (s *Server) QuoteShipment(ctx context.Context, req *shippingv1.QuoteShipmentRequest) (*shippingv1.Quote, error) {
	loc, err := s.geo.Lookup(req.GetToPostcode()) // OK
	if err != nil {
		return nil, status.Errorf(codes.InvalidArgument, "destination: %v", err)
	}
	if loc.Country != s.cfg.Country {
		return nil, status.Errorf(codes.Unimplemented, "no shipping to %s", loc.Country)
	}
	r, err := s.svc.Quote(ctx, req.GetFromPostcode(), req.GetToPostcode(), req.GetWeightGrams()) // BUG: ctxbackground
	if err != nil {
		return nil, toStatus(err)
	}
	return &shippingv1.Quote{Carrier: r.Carrier, AmountMinor: r.AmountMinor, Currency: r.Currency, EtaDays: r.EtaDays}, nil
}

func (s *Server) CreateShipment(ctx context.Context, req *shippingv1.CreateShipmentRequest) (*shippingv1.Shipment, error) {
	sh, err := s.svc.Create(ctx, req.GetOrderId(), req.GetToPostcode(), req.GetWeightGrams(), req.GetCarrier()) // OK
	if err != nil {
		return nil, toStatus(err)
	}
	if err := s.svc.PrintLabel(ctx, sh); err != nil { // OK
		s.log.WarnContext(ctx, "label not printed", "shipment", sh.ID, "err", err)
	}
	go s.svc.PublishCreated(context.WithoutCancel(ctx), sh)
	// ^BUG: detach
	return shipmentToProto(sh), nil
}

func (s *Server) GetShipment(ctx context.Context, req *shippingv1.GetShipmentRequest) (*shippingv1.Shipment, error) {
	sh, err := s.svc.Get(ctx, req.GetId()) // OK
	if err != nil {
		return nil, toStatus(err)
	}
	out := shipmentToProto(sh)
	if sh.Status == "in_transit" {
		ev, err := s.svc.LatestEvent(s.baseCtx, sh.ID) // BUG: ctxflow
		if err == nil && ev != nil {
			out.Status = "in_transit:" + ev.Location
		}
	}
	return out, nil
}

func (s *Server) CancelShipment(ctx context.Context, req *shippingv1.CancelShipmentRequest) (*shippingv1.Shipment, error) {
	sh, err := s.svc.Cancel(ctx, req.GetId()) // OK
	if err != nil {
		return nil, toStatus(err)
	}
	err = retry.Do(ctx, 3, func(ctx context.Context) error { // OK
		cctx, cancel := context.WithTimeout(context.Background(), s.cfg.CarrierTimeout) // BUG: ctxbackground
		defer cancel()
		return s.svc.CancelAtCarrier(cctx, sh)
	})
	if err != nil {
		return nil, status.Errorf(codes.Unavailable, "carrier cancellation: %v", err)
	}
	return shipmentToProto(sh), nil
}

func (s *Server) ListCarriers(ctx context.Context, req *shippingv1.ListCarriersRequest) (*shippingv1.ListCarriersResponse, error) {
	country := req.GetCountry()
	if country == "" {
		country = s.cfg.Country
	}
	// The only ShipmentStore implementation (pgrepo.Shipments, whose Carriers query runs on a
	// context of its own) is injected by main; nothing this package imports can see it.
	carriers, err := s.svc.Carriers(ctx, country) // OK?
	if err != nil {
		return nil, toStatus(err)
	}
	resp := &shippingv1.ListCarriersResponse{}
	for _, c := range carriers {
		active := c.Active
		if active {
			if u, err := url.Parse(c.Host); err == nil {
				if _, err := net.LookupHost(u.Hostname()); err != nil { // BUG: ctxless
					active = false
				}
			}
		}
		resp.Carriers = append(resp.Carriers, &shippingv1.Carrier{Code: c.Code, Name: c.Name, Active: active})
	}
	return resp, nil
}
