package ctxbackground_test

import (
	"path/filepath"
	"testing"

	"golang.org/x/tools/go/analysis/analysistest"

	"github.com/deadlinelint/deadlinelint/analyzers/ctxbackground"
)

func testdata(t *testing.T) string {
	dir, err := filepath.Abs(filepath.Join("..", "..", "testdata"))
	if err != nil {
		t.Fatal(err)
	}
	return dir
}

func TestCtxBackground(t *testing.T) {
	analysistest.Run(t, testdata(t), ctxbackground.Analyzer,
		"ctxbackground/unary", "ctxbackground/streaming", "ctxbackground/shapes",
		"ctxbackground/connectsvc", "ctxbackground/evil", "ctxbackground/behalf",
		"ctxbackground/transitive/...")
}

func TestSuggestedFixes(t *testing.T) {
	analysistest.RunWithSuggestedFixes(t, testdata(t), ctxbackground.Analyzer, "ctxbackground/fix")
}
