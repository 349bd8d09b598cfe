package server

import (
	"fmt"
	"slices"
	"testing"

	"github.com/deadlinelint/deadlinelint/examples/catalog/catalogv1"
)

func item(id string, version int64) *catalogv1.Item {
	return &catalogv1.Item{Id: id, Version: version}
}

// summary renders events as "KIND id@version" for comparison.
func summary(events []*catalogv1.ItemEvent) []string {
	var out []string
	for _, ev := range events {
		out = append(out, fmt.Sprintf("%s %s@%d", ev.GetKind(), ev.GetItem().GetId(), ev.GetItem().GetVersion()))
	}
	return out
}

// TestChanges feeds successive listings to changes, as pollChanges does.
func TestChanges(t *testing.T) {
	versions := make(map[string]int64)
	steps := []struct {
		name     string
		items    []*catalogv1.Item
		complete bool
		want     []string
	}{
		{"first listing", []*catalogv1.Item{item("a", 1), item("b", 1)}, true,
			[]string{"KIND_CHANGED a@1", "KIND_CHANGED b@1"}},
		{"nothing new", []*catalogv1.Item{item("a", 1), item("b", 1)}, true, nil},
		{"b changed", []*catalogv1.Item{item("a", 1), item("b", 2)}, true,
			[]string{"KIND_CHANGED b@2"}},
		{"failed listing removes nothing", nil, false, nil},
		{"a removed", []*catalogv1.Item{item("b", 2)}, true,
			[]string{"KIND_REMOVED a@0"}},
	}
	for _, step := range steps {
		got := summary(changes(versions, step.items, step.complete))
		if !slices.Equal(got, step.want) {
			t.Fatalf("%s: events %q, want %q", step.name, got, step.want)
		}
	}
}
