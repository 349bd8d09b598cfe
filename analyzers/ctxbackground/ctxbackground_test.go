package ctxbackground_test

import (
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"golang.org/x/tools/go/analysis/analysistest"

	"github.com/deadlinelint/deadlinelint/analyzers/ctxbackground"
	"github.com/deadlinelint/deadlinelint/internal/fixcheck"
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
		"ctxbackground/transitive/...", "ctxbackground/oneroot/...", "ctxbackground/nowork/...", "ctxbackground/inspect/...", "ctxbackground/dialer", "ctxbackground/measure", "ctxbackground/decided", "ctxbackground/lifetime", "ctxbackground/dynamic", "ctxbackground/callback/...", "ctxbackground/async/...", "ctxbackground/mocked", "ctxbackground/branch/...", "ctxbackground/logonly", "ctxbackground/liblog", "ctxbackground/mixedsupport", "ctxbackground/tied", "ctxbackground/unlooked", "ctxbackground/idle", "ctxbackground/lazyinit", "ctxbackground/aftererr", "ctxbackground/handdetach/...", "ctxbackground/inhandler", "ctxbackground/overrides", "ctxbackground/runner/...", "ctxbackground/later/...", "ctxbackground/twinleft", "ctxbackground/nocontext/...", "ctxbackground/whendone", "ctxbackground/generickey/...", "ctxbackground/logentry/...", "ctxbackground/knownas/...", "ctxbackground/optoff/...", "ctxbackground/funcfield/...")
}

func TestSuggestedFixes(t *testing.T) {
	fixcheck.Offered(t, analysistest.RunWithSuggestedFixes(t, testdata(t), ctxbackground.Analyzer, "ctxbackground/fix"))
}

// TestOneFindingPerRoot checks that a root reached from many calls in a package is reported
// once, at the first call in source order, with every other call as a related position — and
// that a call reaching a root already reported and a new one reports only the new one. (The
// root is in another package, out of the pass's file set: the message names its file.)
func TestOneFindingPerRoot(t *testing.T) {
	results := analysistest.Run(t, testdata(t), ctxbackground.Analyzer, "ctxbackground/oneroot/...", "ctxbackground/nowork/...", "ctxbackground/inspect/...", "ctxbackground/dialer", "ctxbackground/measure", "ctxbackground/decided", "ctxbackground/lifetime", "ctxbackground/dynamic", "ctxbackground/callback/...")
	var related []string
	var findings int
	for _, r := range results {
		if r.Pass.Pkg.Path() != "ctxbackground/oneroot/api" {
			continue
		}
		for _, d := range r.Diagnostics {
			findings++
			if !strings.Contains(d.Message, "Book.Balance") {
				continue
			}
			for _, rel := range d.Related {
				p := r.Pass.Fset.Position(rel.Pos)
				related = append(related, fmt.Sprintf("%s:%d %s", filepath.Base(p.Filename), p.Line, rel.Message))
			}
		}
	}
	want := []string{
		"ledger.go:15 context.Background() is created here", // in another package: opened there
		"api.go:23 also reached from handler Server.GetItem",
		"api.go:32 also reached from handler Server.ListItems",
	}
	if findings != 2 || !slices.Equal(related, want) {
		t.Errorf("got %d findings, Balance's related positions\n\t%s\nwant 2 findings, related\n\t%s",
			findings, strings.Join(related, "\n\t"), strings.Join(want, "\n\t"))
	}
}
