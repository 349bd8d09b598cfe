package server

import (
	"context"
	"io"

	ordersv1 "example.test/blind/gen/ordersv1"
	"example.test/blind/internal/audit"
	"golang.org/x/sync/errgroup"
	"google.golang.org/grpc"
)

func (s *Server) ListOrders(req *ordersv1.ListOrdersRequest, stream grpc.ServerStreamingServer[ordersv1.Order]) error {
	ctx := stream.Context()
	var n int
	rows, err := s.db.Query(`SELECT count(*) FROM orders WHERE customer_id = $1`, req.GetCustomerId()) // BUG: ctxless
	if err != nil {
		return err
	}
	for rows.Next() {
		_ = rows.Scan(&n)
	}
	rows.Close()
	if _, err := s.cache.GetContext(defaultCtx, "customer/"+req.GetCustomerId()); err != nil { // BUG: ctxflow
		return err
	}
	if err := s.warmCustomer(ctx, req.GetCustomerId()); err != nil { // BUG: ctxbackground
		return err
	}
	return s.orders.ListByCustomer(ctx, req.GetCustomerId(), func(o *ordersv1.Order) error { // OK
		return stream.Send(o)
	})
}

func (s *Server) ImportOrders(stream grpc.ClientStreamingServer[ordersv1.Order, ordersv1.ImportSummary]) error {
	ctx := context.Background() // BUG: ctxbackground
	var sum ordersv1.ImportSummary
	for {
		o, err := stream.Recv()
		if err == io.EOF {
			// the import summary is recorded even if the importer has already disconnected
			_ = s.audit.Write(context.WithoutCancel(stream.Context()), audit.Entry{Action: "import", At: s.now()}) // BUG: detach
			return stream.SendAndClose(&sum)
		}
		if err != nil {
			return err
		}
		if err := s.orders.Insert(ctx, o); err != nil {
			sum.Failed++
			continue
		}
		sum.Imported++
	}
}

func (s *Server) SyncOrders(stream grpc.BidiStreamingServer[ordersv1.SyncRequest, ordersv1.SyncResponse]) error {
	g, gctx := errgroup.WithContext(stream.Context()) // OK
	reqs := make(chan *ordersv1.SyncRequest)
	g.Go(func() error {
		defer close(reqs)
		for {
			r, err := stream.Recv()
			if err == io.EOF {
				return nil
			}
			if err != nil {
				return err
			}
			select {
			case reqs <- r:
			case <-gctx.Done():
				return gctx.Err()
			}
		}
	})
	g.Go(func() error {
		for r := range reqs {
			o, err := s.orders.Get(gctx, r.GetOrderId()) // OK
			if err != nil {
				return err
			}
			if err := stream.Send(&ordersv1.SyncResponse{Order: o}); err != nil {
				return err
			}
		}
		return nil
	})
	go func() {
		_ = s.audit.Write(s.ctx, audit.Entry{Action: "sync-start", At: s.now()}) // BUG: ctxflow
	}()
	return g.Wait()
}

// warmCustomer loads the customer's orders into the cache.
func (s *Server) warmCustomer(ctx context.Context, customerID string) error {
	return s.prefetch(customerID)
}

func (s *Server) prefetch(customerID string) error {
	ctx, cancel := context.WithTimeout(context.Background(), 2e9)
	defer cancel()
	return s.orders.ListByCustomer(ctx, customerID, func(o *ordersv1.Order) error {
		s.cache.Put("order/"+o.Id, []byte(o.Status))
		return nil
	})
}

// loadOrder is shared by handlers and the admin CLI; the CLI passes nil.
func (s *Server) loadOrder(ctx context.Context, id string) (*ordersv1.Order, error) {
	if ctx == nil {
		ctx = context.Background() // OK: nil fallback
	}
	return s.orders.Get(ctx, id)
}
