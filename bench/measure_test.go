package main

import (
	"os"
	"testing"
	"time"
)

func TestMedian(t *testing.T) {
	if got := median([]int64{1, 5, 9}); got != 5 {
		t.Errorf("median odd = %d, want 5", got)
	}
	if got := median([]int64{2, 4, 10, 20}); got != 7 {
		t.Errorf("median even = %d, want 7", got)
	}
}

func TestSummarise(t *testing.T) {
	samples := []sample{
		{wall: 3 * time.Second, cpu: 5 * time.Second, rssKB: 300, exit: 0},
		{wall: 1 * time.Second, cpu: 1 * time.Second, rssKB: 100, exit: 1},
		{wall: 2 * time.Second, cpu: 4 * time.Second, rssKB: 900, exit: 2},
	}
	st := summarise(samples, func(code int) bool { return code <= 1 })
	if st.wall != 2*time.Second || st.wallMin != time.Second || st.wallMax != 3*time.Second {
		t.Errorf("wall = %v [%v, %v], want 2s [1s, 3s]", st.wall, st.wallMin, st.wallMax)
	}
	if st.cpu != 4*time.Second {
		t.Errorf("cpu median = %v, want 4s", st.cpu)
	}
	if st.rssKB != 300 {
		t.Errorf("rss median = %d, want 300", st.rssKB)
	}
	if st.failures != 1 || len(st.exits) != 3 {
		t.Errorf("failures = %d, exits = %v; want 1 failure, 3 distinct exits", st.failures, st.exits)
	}
}

func TestWriteSection(t *testing.T) {
	path := t.TempDir() + "/perf.md"
	if err := writeSection(path, "first\n"); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte("# Title\n\n"+beginMarker+"\nold\n"+endMarker+"\n\ntail\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := writeSection(path, "new\n"); err != nil {
		t.Fatal(err)
	}
	data, _ := os.ReadFile(path)
	want := "# Title\n\n" + beginMarker + "\nnew\n" + endMarker + "\n\ntail\n"
	if string(data) != want {
		t.Errorf("after writeSection:\n%s\nwant:\n%s", data, want)
	}
}
