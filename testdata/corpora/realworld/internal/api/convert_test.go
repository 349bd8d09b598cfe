package api

import (
	"context"
	"testing"
	"time"

	"go.uber.org/zap"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	ordersv1 "example.test/realworld/gen/orders/v1"
	"example.test/realworld/internal/store"
)

func TestCreateOrderValidates(t *testing.T) {
	srv := NewServer(context.Background(), Deps{Log: zap.NewNop()}, Config{})                       // OK
	_, err := srv.CreateOrder(context.Background(), &ordersv1.CreateOrderRequest{CustomerId: "c1"}) // OK
	if status.Code(err) != codes.InvalidArgument {
		t.Fatalf("CreateOrder without lines: %v", err)
	}
}

func TestNewOrderTotals(t *testing.T) {
	o := newOrder(&ordersv1.CreateOrderRequest{
		CustomerId: "c1",
		Currency:   "eur",
		Lines: []*ordersv1.LineItem{
			{Sku: "A", Quantity: 2, UnitPriceCents: 500},
			{Sku: "B", Quantity: 1, UnitPriceCents: 250},
		},
	})
	if o.TotalCents != 1250 || o.Currency != "EUR" || o.Status != store.StatusPending {
		t.Fatalf("order = %+v", o)
	}
}

func TestMutating(t *testing.T) {
	for method, want := range map[string]bool{
		"/orders.v1.OrdersService/CreateOrder": true,
		"/orders.v1.OrdersService/GetOrder":    false,
		"/orders.v1.OrdersService/SyncCart":    false,
		"/orders.v1.OrdersService/RefundOrder": true,
	} {
		if got := mutating(method); got != want {
			t.Errorf("mutating(%s) = %v", method, got)
		}
	}
}

func TestBackoffGrows(t *testing.T) {
	if backoff(0) != 25*time.Millisecond || backoff(3) != 200*time.Millisecond {
		t.Fatalf("backoff = %v, %v", backoff(0), backoff(3))
	}
}

func TestEmailDomain(t *testing.T) {
	if d := emailDomain("Ann@Example.COM"); d != "example.com" {
		t.Fatalf("domain = %q", d)
	}
	if d := emailDomain("nobody"); d != "" {
		t.Fatalf("domain = %q", d)
	}
}
