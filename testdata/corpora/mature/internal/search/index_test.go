package search

import (
	"context"
	"testing"
)

func newTestIndex(docs ...Doc) *Index {
	x := &Index{docs: map[string]Doc{}, terms: map[string]map[string]struct{}{}, dirty: map[string]Doc{}}
	for _, d := range docs {
		_ = x.Apply(context.Background(), d) // OK
	}
	return x
}

func TestSearchRanksByMatchedTerms(t *testing.T) {
	x := newTestIndex(
		Doc{SKU: "a", Name: "Red wool scarf", Warehouse: "ber"},
		Doc{SKU: "b", Name: "Red cotton shirt", Warehouse: "ber"},
		Doc{SKU: "c", Name: "Blue wool hat", Warehouse: "muc"},
	)
	hits, err := x.Search(context.Background(), "", "red wool", 10) // OK
	if err != nil {
		t.Fatal(err)
	}
	if len(hits) != 3 || hits[0].SKU != "a" {
		t.Fatalf("hits = %+v", hits)
	}
	hits, _ = x.Search(context.Background(), "muc", "wool", 10) // OK
	if len(hits) != 1 || hits[0].SKU != "c" {
		t.Fatalf("warehouse filter: hits = %+v", hits)
	}
}

func TestSuggestHonoursCancellation(t *testing.T) {
	x := newTestIndex(Doc{SKU: "a", Name: "scarf"})
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := x.Suggest(ctx, "sc", 5); err == nil {
		t.Fatal("Suggest on a cancelled context succeeded")
	}
	got, err := x.Suggest(context.Background(), "sc", 5) // OK
	if err != nil || len(got) != 1 || got[0] != "scarf" {
		t.Fatalf("Suggest = %v, %v", got, err)
	}
}
