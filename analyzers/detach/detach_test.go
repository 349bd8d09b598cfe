package detach_test

import (
	"go/ast"
	"go/token"
	"path/filepath"
	"testing"

	"golang.org/x/tools/go/analysis"
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

// TestDetach runs the rule on its test packages, checking the // want comments, and that a
// finding points at the work its detached ctx reaches.
func TestDetach(t *testing.T) {
	strict(t)
	results := analysistest.Run(t, testdata(t), detach.Analyzer,
		"detach/basic", "detach/directives", "detach/generated", "detach/evil", "detach/service",
		"detach/crosspkg/...")
	want := map[string]string{
		"Neither":               "reaches Orders.audit with no deadline",
		"DetachedGoroutine":     "runs Orders.audit on a goroutine with no deadline",
		"DetachedClosure":       "reaches store.Exec with no deadline",
		"Deferred":              "defers Service.appendRaw with no deadline",
		"GoLiteralDoesNotBound": "runs a function literal on a goroutine with no deadline",
	}
	got := make(map[string]string)
	for _, r := range results {
		for _, d := range r.Diagnostics {
			fn := enclosingFunc(r.Pass, d.Pos)
			for _, rel := range d.Related {
				got[fn] = rel.Message
			}
		}
	}
	for fn, msg := range want {
		if got[fn] != msg {
			t.Errorf("%s: related %q, want %q", fn, got[fn], msg)
		}
	}
}

// TestLenient runs the rule as it runs by default: only a WithoutCancel whose work has
// neither a bound nor a reason is reported.
func TestLenient(t *testing.T) {
	analysistest.Run(t, testdata(t), detach.Analyzer, "detach/lenient", "detach/wrapper")
}

// strict sets -detach.strict for the rest of the test: these packages were written for the
// full advice, a bound and a reason both.
func strict(t *testing.T) {
	t.Helper()
	if err := detach.Analyzer.Flags.Set("strict", "true"); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { detach.Analyzer.Flags.Set("strict", "false") })
}

// enclosingFunc names the function declaration holding pos.
func enclosingFunc(pass *analysis.Pass, pos token.Pos) string {
	for _, f := range pass.Files {
		for _, decl := range f.Decls {
			if fd, ok := decl.(*ast.FuncDecl); ok && fd.Pos() <= pos && pos < fd.End() {
				return fd.Name.Name
			}
		}
	}
	return ""
}
