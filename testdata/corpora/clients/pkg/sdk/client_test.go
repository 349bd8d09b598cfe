package sdk

import (
	"context"
	"net"
	"testing"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/credentials/insecure"
	"google.golang.org/grpc/status"
	"google.golang.org/grpc/test/bufconn"

	inventoryv1 "example.test/clients/gen/inventory/v1"
)

type fakeInventory struct {
	inventoryv1.UnimplementedInventoryServiceServer
	adjustFailures int
	sawDeadline    bool
}

func (f *fakeInventory) GetItem(ctx context.Context, req *inventoryv1.GetItemRequest) (*inventoryv1.Item, error) {
	if req.GetSku() == "missing" {
		return nil, status.Error(codes.NotFound, "no such sku")
	}
	return &inventoryv1.Item{Sku: req.GetSku(), Name: "Widget", OnHand: 12}, nil
}

func (f *fakeInventory) ReserveStock(ctx context.Context, req *inventoryv1.ReserveStockRequest) (*inventoryv1.Reservation, error) {
	_, f.sawDeadline = ctx.Deadline()
	return &inventoryv1.Reservation{ReservationId: "r-1", Sku: req.GetSku(), Quantity: req.GetQuantity(), State: "held"}, nil
}

func (f *fakeInventory) AdjustCount(ctx context.Context, req *inventoryv1.AdjustCountRequest) (*inventoryv1.Item, error) {
	if f.adjustFailures > 0 {
		f.adjustFailures--
		return nil, status.Error(codes.Unavailable, "busy")
	}
	return &inventoryv1.Item{Sku: req.GetSku(), OnHand: 12 + req.GetDelta()}, nil
}

func newTestClient(t *testing.T, inv *fakeInventory) (*Client, *grpc.ClientConn) {
	t.Helper()
	lis := bufconn.Listen(1 << 20)
	srv := grpc.NewServer()
	inventoryv1.RegisterInventoryServiceServer(srv, inv)
	go srv.Serve(lis)
	t.Cleanup(srv.Stop)

	conn, err := grpc.NewClient("passthrough:///bufnet",
		grpc.WithContextDialer(func(ctx context.Context, _ string) (net.Conn, error) { return lis.DialContext(ctx) }),
		grpc.WithTransportCredentials(insecure.NewCredentials()),
	)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { conn.Close() })
	return NewFromConns(conn, conn, conn, 2*time.Second), conn
}

func TestGetItem(t *testing.T) {
	c, _ := newTestClient(t, &fakeInventory{})
	item, err := c.GetItem(context.Background(), "SKU-1") // OK
	if err != nil {
		t.Fatal(err)
	}
	if item.GetName() != "Widget" {
		t.Fatalf("name = %q", item.GetName())
	}
	if _, err := c.GetItem(context.Background(), "missing"); status.Code(err) != codes.NotFound { // OK
		t.Fatalf("err = %v, want NotFound", err)
	}
}

func TestReserveStockAppliesDefaultDeadline(t *testing.T) {
	inv := &fakeInventory{}
	c, _ := newTestClient(t, inv)
	if _, err := c.ReserveStock(context.Background(), "SKU-1", 2, "o-1"); err != nil { // OK
		t.Fatal(err)
	}
	if !inv.sawDeadline {
		t.Fatal("ReserveStock reached the server without a deadline")
	}
}

func TestAdjustCountRetries(t *testing.T) {
	c, _ := newTestClient(t, &fakeInventory{adjustFailures: 2})
	item, err := c.AdjustCount(context.Background(), "SKU-1", 3, "test") // OK
	if err != nil {
		t.Fatal(err)
	}
	if item.GetOnHand() != 15 {
		t.Fatalf("on hand = %d, want 15", item.GetOnHand())
	}
}

func TestInvokeByName(t *testing.T) {
	_, conn := newTestClient(t, &fakeInventory{})
	item, err := Invoke[inventoryv1.Item](context.Background(), conn, inventoryv1.InventoryService_GetItem_FullMethodName, &inventoryv1.GetItemRequest{Sku: "SKU-9"}) // OK
	if err != nil {
		t.Fatal(err)
	}
	if item.GetSku() != "SKU-9" {
		t.Fatalf("sku = %q", item.GetSku())
	}
	direct, err := inventoryv1.NewInventoryServiceClient(conn).GetItem(context.Background(), &inventoryv1.GetItemRequest{Sku: "SKU-9"}) // OK
	if err != nil {
		t.Fatal(err)
	}
	if direct.GetOnHand() != item.GetOnHand() {
		t.Fatalf("direct and by-name lookups disagree")
	}
}
