package main

import "testing"

func TestParseVars(t *testing.T) {
	got, err := parseVars([]string{"order_id=42", "total=12.50 EUR", "empty="})
	if err != nil {
		t.Fatal(err)
	}
	if got["order_id"] != "42" || got["total"] != "12.50 EUR" || got["empty"] != "" {
		t.Fatalf("got %v", got)
	}
	if _, err := parseVars([]string{"novalue"}); err == nil {
		t.Fatal("want error")
	}
}
