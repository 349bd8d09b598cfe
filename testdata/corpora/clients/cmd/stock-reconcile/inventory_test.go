package main

import (
	"context"
	"testing"

	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	inventoryv1 "example.test/clients/gen/inventory/v1"
)

type fakeInventory struct {
	inventoryv1.InventoryServiceClient
	items    map[string]*inventoryv1.Item
	failures int
}

func (f *fakeInventory) GetItem(_ context.Context, in *inventoryv1.GetItemRequest, _ ...grpc.CallOption) (*inventoryv1.Item, error) {
	it, ok := f.items[in.GetSku()]
	if !ok {
		return nil, status.Error(codes.NotFound, in.GetSku())
	}
	return it, nil
}

func (f *fakeInventory) AdjustCount(_ context.Context, in *inventoryv1.AdjustCountRequest, _ ...grpc.CallOption) (*inventoryv1.Item, error) {
	if f.failures > 0 {
		f.failures--
		return nil, status.Error(codes.Unavailable, "try again")
	}
	it := f.items[in.GetSku()]
	it.OnHand += in.GetDelta()
	return it, nil
}

func TestCheckItem(t *testing.T) {
	inv := &fakeInventory{items: map[string]*inventoryv1.Item{
		"sku-1": {Sku: "sku-1", OnHand: 7, Reserved: 3},
	}}
	drift, err := checkItem(context.Background(), inv, "sku-1", 12) // OK
	if err != nil {
		t.Fatal(err)
	}
	if drift != 2 {
		t.Fatalf("drift = %d, want 2", drift)
	}
	if _, err := checkItem(context.Background(), inv, "sku-404", 1); status.Code(err) != codes.NotFound { // OK
		t.Fatalf("err = %v, want NotFound", err)
	}
}

func TestAdjustWithRetry(t *testing.T) {
	inv := &fakeInventory{failures: 2, items: map[string]*inventoryv1.Item{
		"sku-1": {Sku: "sku-1", OnHand: 7},
	}}
	item, err := adjustWithRetry(context.Background(), inv, "sku-1", 5, 3) // OK
	if err != nil {
		t.Fatal(err)
	}
	if item.GetOnHand() != 12 {
		t.Fatalf("on hand = %d, want 12", item.GetOnHand())
	}
}
