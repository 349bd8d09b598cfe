package deadlinemath_test

import (
	"path/filepath"
	"testing"

	"golang.org/x/tools/go/analysis/analysistest"

	"github.com/deadlinelint/deadlinelint/analyzers/deadlinemath"
)

func TestDeadlineMath(t *testing.T) {
	dir, err := filepath.Abs(filepath.Join("..", "..", "testdata"))
	if err != nil {
		t.Fatal(err)
	}
	analysistest.Run(t, dir, deadlinemath.Analyzer, "deadlinemath/zero", "deadlinemath/units", "deadlinemath/evil")
}
