package detach_test

import (
	"path/filepath"
	"testing"

	"golang.org/x/tools/go/analysis/analysistest"

	"github.com/deadlinelint/deadlinelint/analyzers/detach"
)

func testdata(t *testing.T) string {
	dir, err := filepath.Abs(filepath.Join("..", "..", "testdata"))
	if err != nil {
		t.Fatal(err)
	}
	return dir
}

func TestDetach(t *testing.T) {
	analysistest.Run(t, testdata(t), detach.Analyzer, "detach/basic", "detach/directives", "detach/generated", "detach/evil")
}
