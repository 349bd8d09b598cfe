package server

import (
	"context"
	"encoding/json"
	"fmt"

	ordersv1 "example.test/blind/gen/ordersv1"
)

// PaymentEvent is published by the payments service when an order is paid.
type PaymentEvent struct {
	OrderID string `json:"order_id"`
	Status  string `json:"status"`
}

// HandlePayment processes one message from the payments queue. The queue
// client gives every message a context with the message's visibility
// timeout.
//
//deadlinelint:scope
func (s *Server) HandlePayment(ctx context.Context, msg []byte) error {
	var ev PaymentEvent
	if err := json.Unmarshal(msg, &ev); err != nil {
		return fmt.Errorf("bad payment event: %w", err)
	}
	if _, err := s.orders.Get(ctx, ev.OrderID); err != nil { // OK
		return err
	}
	return s.orders.SetStatus(context.Background(), ev.OrderID, ev.Status) // BUG: ctxbackground
}

// ReplayPayments re-applies every stored payment event; run by an operator.
func (s *Server) ReplayPayments(events [][]byte) error {
	ctx := context.Background() // OK: not a request scope
	for _, e := range events {
		if err := s.HandlePayment(ctx, e); err != nil {
			return err
		}
	}
	return nil
}

// Reindex rebuilds the search index for one customer.
//
//deadlinelint:scope
func (s *Server) Reindex(ctx context.Context, customerID string) error {
	//deadlinelint:ignore ctxbackground the reindex must finish once started, it is idempotent and short
	return s.orders.ListByCustomer(context.Background(), customerID, func(o *ordersv1.Order) error { return nil }) // OK: suppressed
}
