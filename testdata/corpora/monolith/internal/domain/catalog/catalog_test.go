package catalog_test

import (
	"context"
	"testing"

	"example.test/monolith/internal/domain/catalog"
	"example.test/monolith/internal/repository"
	"example.test/monolith/internal/repository/mocks"
)

func TestSearchClampsLimit(t *testing.T) {
	store := mocks.NewProductStore()
	store.Products["ABC-1"] = &repository.Product{SKU: "ABC-1", Title: "Blue mug", Currency: "EUR", Active: true}
	svc := catalog.NewServiceWithStore(store)
	got, err := svc.Search(context.Background(), "mug", nil, 10_000) // OK
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 1 {
		t.Fatalf("got %d products", len(got))
	}
	calls := store.Calls()
	if last := calls[len(calls)-1]; last.Args[2] != 20 {
		t.Fatalf("limit passed to store = %v, want 20", last.Args[2])
	}
}

func TestUpsertRejectsBadSKU(t *testing.T) {
	svc := catalog.NewServiceWithStore(mocks.NewProductStore())
	err := svc.Upsert(context.TODO(), &repository.Product{SKU: "x", Title: "t", Currency: "EUR"}) // OK
	if err == nil {
		t.Fatal("want error for short sku")
	}
}
