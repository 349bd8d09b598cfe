package analyzers_test

import (
	"fmt"
	"path/filepath"
	"slices"
	"testing"

	"golang.org/x/tools/go/analysis/analysistest"

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

// recorder collects what analysistest would report as test failures: unexpected diagnostics
// are what TestTestSupport counts itself.
type recorder struct{ errs []string }

func (r *recorder) Errorf(format string, args ...any) {
	r.errs = append(r.errs, fmt.Sprintf(format, args...))
}

// TestTestSupport checks that no rule reports in a test-support package (its non-test files
// import testing), while the same code in a production package is reported by each rule that
// applies — also in a test-support package that holds a production server, where what the
// server's handlers reach is production code and the rest test support.
func TestTestSupport(t *testing.T) {
	dir, err := filepath.Abs(filepath.Join("..", "testdata"))
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]int{"ctxbackground": 1, "detach": 1, "missingdeadline": 1}
	for _, a := range analyzers.All() {
		got := map[string]int{}
		for _, r := range analysistest.Run(new(recorder), dir, a, "testsupport/harness", "testsupport/prod", "testsupport/mixed") {
			got[r.Pass.Pkg.Path()] += len(r.Diagnostics)
		}
		if n := got["testsupport/harness"]; n != 0 {
			t.Errorf("%s: %d findings in the test-support package, want none", a.Name, n)
		}
		if n := got["testsupport/prod"]; n != want[a.Name] {
			t.Errorf("%s: %d findings in the production package, want %d", a.Name, n, want[a.Name])
		}
		if n := got["testsupport/mixed"]; n != want[a.Name] {
			t.Errorf("%s: %d findings in the test-support package's production server, want %d", a.Name, n, want[a.Name])
		}
	}
}
