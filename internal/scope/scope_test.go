package scope_test

import (
	"path/filepath"
	"strings"
	"testing"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/analysistest"

	"github.com/deadlinelint/deadlinelint/internal/ctxssa"
	"github.com/deadlinelint/deadlinelint/internal/scope"
)

var kindNames = map[scope.Kind]string{
	scope.Unary: "unary", scope.Streaming: "streaming", scope.Interceptor: "interceptor",
	scope.Connect: "connect", scope.Marked: "marked", scope.Closure: "closure", scope.Started: "started",
}

// printer reports every request scope with its kind, name and request parameter.
var printer = &analysis.Analyzer{
	Name:     "scopeprinter",
	Doc:      "print request scopes",
	Requires: []*analysis.Analyzer{ctxssa.Analyzer},
	Run: func(pass *analysis.Pass) (any, error) {
		res := pass.ResultOf[ctxssa.Analyzer].(*ctxssa.Result)
		if !res.MayHaveScopes() || res.External {
			return nil, nil
		}
		info := res.SSA()
		for _, fn := range info.Funcs {
			sc := info.Scopes.Of(fn)
			if sc == nil {
				continue
			}
			parts := []string{kindNames[sc.Kind], sc.Name()}
			if sc.Ctx != nil {
				parts = append(parts, "ctx="+sc.Ctx.Name())
			}
			if sc.Stream != nil {
				parts = append(parts, "stream="+sc.Stream.Name())
			}
			if sc.Recv != nil {
				parts = append(parts, "recv="+sc.Recv.Name())
			}
			pass.Reportf(fn.Pos(), "%s", strings.Join(parts, " "))
		}
		return nil, nil
	},
}

func TestFind(t *testing.T) {
	dir, err := filepath.Abs(filepath.Join("..", "..", "testdata"))
	if err != nil {
		t.Fatal(err)
	}
	analysistest.Run(t, dir, printer, "scope/kinds", "scope/fakes", "scope/started", "scope/connectshape")
}
