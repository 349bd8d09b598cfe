// Package fixcheck holds a helper for the rules' tests of suggested fixes.
package fixcheck

import (
	"os"
	"testing"

	"golang.org/x/tools/go/analysis/analysistest"
)

// Offered fails t for every file of the analysed packages that has a golden file (file.go.golden)
// but no suggested fix: analysistest.RunWithSuggestedFixes compares a file with its golden only
// when a fix was offered in it, so a rule that stopped offering fixes would pass unseen.
func Offered(t testing.TB, results []*analysistest.Result) {
	t.Helper()
	for _, r := range results {
		if r.Err != nil {
			continue // analysistest has reported it
		}
		fixed := map[string]bool{}
		for _, d := range r.Diagnostics {
			if len(d.SuggestedFixes) > 0 {
				fixed[r.Pass.Fset.File(d.Pos).Name()] = true
			}
		}
		for _, f := range r.Pass.Files {
			name := r.Pass.Fset.File(f.Pos()).Name()
			if _, err := os.Stat(name + ".golden"); err == nil && !fixed[name] {
				t.Errorf("%s has a golden file but no suggested fix was offered in it", name)
			}
		}
	}
}
