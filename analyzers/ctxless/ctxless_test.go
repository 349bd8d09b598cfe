package ctxless_test

import (
	"os"
	"path/filepath"
	"testing"

	"golang.org/x/tools/go/analysis/analysistest"
	"golang.org/x/tools/go/packages"

	"github.com/deadlinelint/deadlinelint/analyzers/ctxless"
	"github.com/deadlinelint/deadlinelint/internal/fixcheck"
)

func testdata(t *testing.T) string {
	dir, err := filepath.Abs(filepath.Join("..", "..", "testdata"))
	if err != nil {
		t.Fatal(err)
	}
	return dir
}

func TestCtxLess(t *testing.T) {
	analysistest.Run(t, testdata(t), ctxless.Analyzer, "ctxless/sqlsvc", "ctxless/netsvc", "ctxless/evil", "ctxless/sleeps", "ctxless/logging", "ctxless/switchedoff", "ctxless/concretetwin", "ctxless/given/...")
}

func TestSuggestedFixes(t *testing.T) {
	fixcheck.Offered(t, analysistest.RunWithSuggestedFixes(t, testdata(t), ctxless.Analyzer, "ctxless/fix"))
}

// TestFixedCodeCompiles type-checks the fixed code of the golden file in place of the
// original: a rewrite must never break the build.
func TestFixedCodeCompiles(t *testing.T) {
	dir := testdata(t)
	src := filepath.Join(dir, "src", "ctxless", "fix", "fix.go")
	golden, err := os.ReadFile(src + ".golden")
	if err != nil {
		t.Fatal(err)
	}
	cfg := &packages.Config{
		Mode:    packages.NeedName | packages.NeedTypes | packages.NeedSyntax | packages.NeedTypesInfo,
		Dir:     filepath.Join(dir, "src"),
		Env:     append(os.Environ(), "GO111MODULE=off", "GOPATH="+dir, "GOFLAGS=", "GOWORK=off"),
		Overlay: map[string][]byte{src: golden},
	}
	pkgs, err := packages.Load(cfg, "ctxless/fix")
	if err != nil {
		t.Fatal(err)
	}
	if n := packages.PrintErrors(pkgs); n > 0 {
		t.Fatalf("the fixed code of %s.golden has %d errors", src, n)
	}
}
