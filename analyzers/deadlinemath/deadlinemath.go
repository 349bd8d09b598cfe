package deadlinemath

import (
	_ "embed"

	"golang.org/x/tools/go/analysis"

	"github.com/deadlinelint/deadlinelint/internal/ctxssa"
	"github.com/deadlinelint/deadlinelint/internal/report"
	"github.com/deadlinelint/deadlinelint/internal/ruledoc"
	"github.com/deadlinelint/deadlinelint/internal/typesutil"
)

const name = "deadlinemath"

//go:embed doc.go
var doc string

// Analyzer reports arithmetic on a deadline that may not exist, and durations without a unit
// where a deadline or timeout is set.
var Analyzer = &analysis.Analyzer{
	Name:     name,
	Doc:      ruledoc.MustExtract(doc, name),
	URL:      ruledoc.URL(name),
	Requires: []*analysis.Analyzer{ctxssa.Analyzer},
	Run:      run,
}

func run(pass *analysis.Pass) (any, error) {
	res := pass.ResultOf[ctxssa.Analyzer].(*ctxssa.Result)
	rep := report.New(pass, res, name)
	defer rep.Finish()
	if res.External {
		return nil, nil
	}
	checkUnits(pass, rep)
	// A Deadline() time is used through package time or context, or a testing.T's.
	if typesutil.Imports(pass.Pkg, "time") || typesutil.ImportsContext(pass.Pkg) || typesutil.Imports(pass.Pkg, "testing") {
		checkDeadlines(res, rep)
	}
	return nil, nil
}
