package inventory

import (
	"testing"

	"example.test/mature/internal/store"
)

func TestClampPageSize(t *testing.T) {
	for in, want := range map[int32]int{-1: defaultPageSize, 0: defaultPageSize, 7: 7, 10_000: maxPageSize} {
		if got := clampPageSize(in); got != want {
			t.Errorf("clampPageSize(%d) = %d, want %d", in, got, want)
		}
	}
}

func TestItemRoundTrip(t *testing.T) {
	in := store.Item{SKU: "s", Name: "n", Warehouse: "w", Quantity: 3, UnitPriceCents: 199}
	b, err := encodeItem(in)
	if err != nil {
		t.Fatal(err)
	}
	out, err := decodeItem(b)
	if err != nil || out != in {
		t.Fatalf("round trip: %+v, %v", out, err)
	}
	if p := toProto(out); fromProto(p) != in {
		t.Fatalf("proto round trip: %+v", fromProto(p))
	}
}
