package driver

import (
	"bytes"
	"go/ast"
	"go/printer"
	"strings"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/passes/inspect"
	"golang.org/x/tools/go/ast/inspector"
)

// badcall is a test rule: it reports every call to a function named bad
// (-badcall.name), with a fix that calls good instead and a related
// position at the function's declaration.
var badcall = &analysis.Analyzer{
	Name:     "badcall",
	Doc:      "report calls to bad\n\nThe badcall test rule reports every call to the function named by -badcall.name.",
	Requires: []*analysis.Analyzer{inspect.Analyzer},
	Run:      runBadcall,
}

var badName string

func init() {
	badcall.Flags.StringVar(&badName, "name", "bad", "name of the function to report")
}

func runBadcall(pass *analysis.Pass) (any, error) {
	insp := pass.ResultOf[inspect.Analyzer].(*inspector.Inspector)
	insp.Preorder([]ast.Node{(*ast.CallExpr)(nil)}, func(n ast.Node) {
		call := n.(*ast.CallExpr)
		id, ok := call.Fun.(*ast.Ident)
		if !ok || id.Name != badName {
			return
		}
		var args []string
		for _, a := range call.Args {
			var b bytes.Buffer
			printer.Fprint(&b, pass.Fset, a)
			args = append(args, b.String())
		}
		d := analysis.Diagnostic{
			Pos:     call.Pos(),
			End:     call.End(),
			Message: "call to " + badName,
			SuggestedFixes: []analysis.SuggestedFix{{
				Message: "call good",
				TextEdits: []analysis.TextEdit{{
					Pos: call.Pos(), End: call.End(),
					NewText: []byte("good(" + strings.Join(args, ", ") + ")"),
				}},
			}},
		}
		if obj := pass.TypesInfo.Uses[id]; obj != nil {
			d.Related = []analysis.RelatedInformation{{Pos: obj.Pos(), Message: badName + " is declared here"}}
		}
		pass.Report(d)
	})
	return nil, nil
}

// panicky is a test rule with facts (so it also runs on dependencies)
// that panics on any package named boom.
var panicky = &analysis.Analyzer{
	Name:      "panicky",
	Doc:       "panic on packages named boom",
	Run:       runPanicky,
	FactTypes: []analysis.Fact{new(visitedFact)},
}

// visitedFact marks a package panicky has seen.
type visitedFact struct{ Seen bool }

func (*visitedFact) AFact() {}

func runPanicky(pass *analysis.Pass) (any, error) {
	if pass.Pkg.Name() == "boom" {
		panic("boom!")
	}
	pass.ExportPackageFact(&visitedFact{Seen: true})
	return nil, nil
}
