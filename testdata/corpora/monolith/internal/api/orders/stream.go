package orders

import (
	"context"
	"errors"
	"io"

	ordersv1 "example.test/monolith/gen/orders/v1"
)

func (s *Server) WatchOrder(req *ordersv1.WatchOrderRequest, stream ordersv1.OrderService_WatchOrderServer) error {
	ctx := stream.Context()
	changes, err := s.svc.Subscribe(ctx, req.GetId()) // OK
	if err != nil {
		return toStatus(err)
	}
	for {
		select {
		case <-ctx.Done(): // OK
			return ctx.Err()
		case c, ok := <-changes:
			if !ok {
				return nil
			}
			full, err := s.svc.Get(s.lifetime, c.ID) // BUG: ctxflow
			if err != nil {
				return toStatus(err)
			}
			if err := stream.Send(&ordersv1.OrderEvent{OrderId: full.ID, Status: full.Status, AtUnix: c.CreatedAt.Unix()}); err != nil {
				return err
			}
		}
	}
}

func (s *Server) BulkUpdateStatus(stream ordersv1.OrderService_BulkUpdateStatusServer) error {
	ctx, cancel := context.WithTimeout(context.Background(), s.cfg.BulkTimeout) // BUG: ctxbackground
	defer cancel()
	resp := &ordersv1.BulkUpdateStatusResponse{}
	for {
		u, err := stream.Recv()
		if errors.Is(err, io.EOF) {
			return stream.SendAndClose(resp)
		}
		if err != nil {
			return err
		}
		o, err := s.svc.Get(ctx, u.GetOrderId())
		if err == nil {
			err = s.svc.SetStatus(ctx, o.ID, o.Status, u.GetStatus())
		}
		if err != nil {
			resp.Failed = append(resp.Failed, u.GetOrderId())
			continue
		}
		resp.Updated++
	}
}
