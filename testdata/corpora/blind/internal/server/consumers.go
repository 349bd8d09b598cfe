package server

import (
	"context"
	"net"
	"net/http"
	"time"

	ordersv1 "example.test/blind/gen/ordersv1"
	"example.test/blind/internal/audit"
	"example.test/blind/internal/retry"
)

type ctxKey struct{}

// HandleShipment processes one shipment event from the warehouse queue.
//
//deadlinelint:scope
func (s *Server) HandleShipment(ctx context.Context, orderID string) error {
	get := s.orders.Get
	if _, err := get(context.Background(), orderID); err != nil { // BUG: ctxbackground
		return err
	}
	o, err := retry.Do(ctx, 3, func(ctx context.Context) (*ordersv1.Order, error) { // OK: generic helper passes ctx
		return s.orders.Get(ctx, orderID)
	})
	if err != nil {
		return err
	}
	if _, err := retry.Forever(ctx, func(ctx context.Context) (struct{}, error) { // BUG: ctxbackground
		return struct{}{}, s.orders.SetStatus(ctx, o.Id, "shipped")
	}); err != nil {
		return err
	}
	defer s.audit.Write(context.Background(), audit.Entry{Action: "shipped", OrderID: o.Id}) // BUG: ctxbackground

	vctx := context.WithValue(context.Background(), ctxKey{}, o.Id) // BUG: ctxbackground
	if err := s.orders.SetStatus(vctx, o.Id, "in-transit"); err != nil {
		return err
	}

	if err := s.db.Ping(); err != nil { // BUG: ctxless
		return err
	}
	if _, err := net.LookupHost("tracking.internal"); err != nil { // BUG: ctxless
		return err
	}
	d := &net.Dialer{Timeout: time.Second}
	if c, err := d.Dial("tcp", "tracking.internal:7000"); err == nil { // BUG: ctxless
		c.Close()
	}
	if resp, err := http.DefaultClient.Get("http://tracking.internal/" + o.Id); err == nil { // BUG: ctxless
		resp.Body.Close()
	}
	t := time.NewTimer(time.Second) // OK
	select {
	case <-ctx.Done():
		t.Stop()
		return ctx.Err()
	case <-t.C:
	}
	return nil
}

// HandleRefund processes one refund event from the payments queue.
//
//deadlinelint:scope
func (s *Server) HandleRefund(ctx context.Context, orderID string, retryFresh bool) error {
	lctx := ctx
	if retryFresh {
		lctx = context.Background() // BUG: ctxbackground
	}
	if err := s.orders.SetStatus(lctx, orderID, "refunded"); err != nil {
		return err
	}

	sctx := s.ctx
	go func() {
		_ = s.orders.SetStatus(sctx, orderID, "refund-notified") // BUG: ctxflow
	}()

	//deadlinelint:detach the refund audit row must survive the consumer's ack timeout
	dctx := context.WithoutCancel(ctx) // OK: directive
	wctx, cancel := context.WithTimeout(dctx, 3*time.Second)
	defer cancel()
	_ = s.audit.Write(wctx, audit.Entry{Action: "refund", OrderID: orderID})

	if ctx.Value(ctxKey{}) == nil {
		ctx = context.WithValue(ctx, ctxKey{}, orderID) // OK: derived
	}
	return s.orders.SetStatus(ctx, orderID, "closed")
}
