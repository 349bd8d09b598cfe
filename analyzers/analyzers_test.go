package analyzers_test

import (
	"slices"
	"testing"

	"github.com/deadlinelint/deadlinelint/analyzers"
	"github.com/deadlinelint/deadlinelint/internal/report"
)

// TestRuleNames checks that the list suppressions are checked against is the list of rules.
func TestRuleNames(t *testing.T) {
	var names []string
	for _, a := range analyzers.All() {
		names = append(names, a.Name)
		if a.Doc == "" || a.URL == "" {
			t.Errorf("rule %s has no Doc or URL", a.Name)
		}
	}
	if !slices.Equal(names, report.Rules) {
		t.Errorf("report.Rules = %v, analyzers.All() names = %v", report.Rules, names)
	}
}
