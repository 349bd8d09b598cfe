package ctxless_test

import (
	"path/filepath"
	"testing"

	"golang.org/x/tools/go/analysis/analysistest"

	"github.com/deadlinelint/deadlinelint/analyzers/ctxless"
)

func testdata(t *testing.T) string {
	dir, err := filepath.Abs(filepath.Join("..", "..", "testdata"))
	if err != nil {
		t.Fatal(err)
	}
	return dir
}

func TestCtxLess(t *testing.T) {
	analysistest.Run(t, testdata(t), ctxless.Analyzer, "ctxless/sqlsvc", "ctxless/netsvc", "ctxless/evil")
}
