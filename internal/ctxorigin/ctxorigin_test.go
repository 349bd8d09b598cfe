package ctxorigin_test

import (
	"fmt"
	"path/filepath"
	"testing"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/analysistest"

	"github.com/deadlinelint/deadlinelint/internal/ctxorigin"
	"github.com/deadlinelint/deadlinelint/internal/ctxssa"
)

// printer reports, at every sink of every function, the origin set of its ctx argument, so
// that testdata pins down the resolver's answer for each SSA shape with // want.
var printer = &analysis.Analyzer{
	Name:     "originprinter",
	Doc:      "print the origins of every ctx handed to a call",
	Requires: []*analysis.Analyzer{ctxssa.Analyzer},
	Run: func(pass *analysis.Pass) (any, error) {
		res := pass.ResultOf[ctxssa.Analyzer].(*ctxssa.Result)
		if !res.Context || res.External {
			return nil, nil
		}
		info := res.SSA()
		for _, fn := range info.Funcs {
			for _, s := range ctxorigin.Sinks(fn) {
				pos, _ := res.CallRange(s.Instr)
				pass.Reportf(pos, "%v", info.Origins.Of(s.Ctx))
			}
		}
		return nil, nil
	},
}

func TestOrigins(t *testing.T) {
	dir, err := filepath.Abs(filepath.Join("..", "..", "testdata"))
	if err != nil {
		t.Fatal(err)
	}
	analysistest.Run(t, dir, printer, "ctxorigin/shapes")
}

func TestSetHelpers(t *testing.T) {
	s := ctxorigin.Set{{Kind: ctxorigin.Unknown}}
	if s.Known() || s.Has(ctxorigin.Request) {
		t.Errorf("%v: Known() or Has(Request) true for an unknown-only set", s)
	}
	s = append(s, ctxorigin.Origin{Kind: ctxorigin.Request, Deadline: true})
	if !s.Known() || !s.Has(ctxorigin.Request) || s.Has(ctxorigin.Root) {
		t.Errorf("%v: Known/Has wrong", s)
	}
	if got := fmt.Sprint(s); got != "[unknown request+deadline]" {
		t.Errorf("String = %q", got)
	}
}
