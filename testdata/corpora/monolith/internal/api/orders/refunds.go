package orders

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http"

	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	ordersv1 "example.test/monolith/gen/orders/v1"
)

type pspRefund struct {
	ID     string `json:"id"`
	Status string `json:"status"`
}

func (s *Server) RefundOrder(ctx context.Context, req *ordersv1.RefundOrderRequest) (*ordersv1.RefundOrderResponse, error) {
	o, err := s.svc.Get(ctx, req.GetId()) // OK
	if err != nil {
		return nil, toStatus(err)
	}
	amount := req.GetAmountMinor()
	if amount == 0 || amount > o.TotalMinor {
		amount = o.TotalMinor
	}

	body, _ := json.Marshal(map[string]any{"order_id": o.ID, "amount_minor": amount, "currency": o.Currency})
	hreq, err := http.NewRequest(http.MethodPost, s.cfg.PSPURL+"/v2/refunds", bytes.NewReader(body)) // BUG: ctxless
	if err != nil {
		return nil, status.Error(codes.Internal, err.Error())
	}
	hreq.Header.Set("Content-Type", "application/json")
	hreq.Header.Set("Idempotency-Key", "refund-"+o.ID)
	resp, err := s.http.Do(hreq) // OK
	if err != nil {
		return nil, status.Errorf(codes.Unavailable, "psp: %v", err)
	}
	defer resp.Body.Close()
	if resp.StatusCode/100 != 2 {
		return nil, status.Errorf(codes.Unavailable, "psp: %s", resp.Status)
	}
	var r pspRefund
	if err := json.NewDecoder(resp.Body).Decode(&r); err != nil {
		return nil, status.Errorf(codes.Unavailable, "psp: %v", err)
	}

	// The PSP has moved the money at this point; the ledger must learn about it even if the
	// caller has already given up on us.
	rctx := context.WithoutCancel(ctx)
	// ^BUG: detach
	ref, err := s.svc.RecordRefund(rctx, o.ID, amount, r.ID)
	if err != nil {
		return nil, status.Error(codes.Internal, fmt.Sprintf("refund %s booked at psp but not recorded: %v", r.ID, err))
	}
	return &ordersv1.RefundOrderResponse{RefundId: ref.ID, Status: r.Status}, nil
}
