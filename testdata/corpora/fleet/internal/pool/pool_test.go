package pool

import (
	"context"
	"errors"
	"slices"
	"strconv"
	"testing"
)

func TestMapKeepsOrder(t *testing.T) {
	got, err := Map(context.Background(), []int{3, 1, 2}, 2, func(_ context.Context, n int) (string, error) { // OK
		return strconv.Itoa(n * 10), nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(got, []string{"30", "10", "20"}) {
		t.Fatalf("got %v", got)
	}
}

func TestDrainRunsEverything(t *testing.T) {
	seen := make(chan int, 10)
	err := Drain(context.Background(), []int{1, 2, 3, 4}, 2, func(_ context.Context, n int) error { // OK
		seen <- n
		if n == 3 {
			return errors.New("three")
		}
		return nil
	})
	close(seen)
	if err == nil {
		t.Fatal("want error")
	}
	if n := len(seen); n != 4 {
		t.Fatalf("ran %d of 4", n)
	}
}

func TestChunk(t *testing.T) {
	var sizes []int
	for c := range Chunk([]int{1, 2, 3, 4, 5}, 2) {
		sizes = append(sizes, len(c))
	}
	if !slices.Equal(sizes, []int{2, 2, 1}) {
		t.Fatalf("got %v", sizes)
	}
}
