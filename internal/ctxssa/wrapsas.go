package ctxssa

import (
	"go/ast"
	"go/types"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/types/typeutil"

	"github.com/deadlinelint/deadlinelint/internal/ctxorigin"
)

// wrapsAs is the fact of a function that only calls errors.As with its two parameters and
// returns the answer (a module's own errors.As): a condition on its call is known when one on
// errors.As's would be (ctxorigin.LiveBlocks).
type wrapsAs struct{}

// AFact marks wrapsAs as an analysis fact.
func (*wrapsAs) AFact() {}

func (*wrapsAs) String() string { return "wraps errors.As" }

// exportWrapsAs exports wrapsAs for each function of the package whose body is `return
// errors.As(err, target)` — or the same call of a function with the fact — with its own two
// parameters, in order.
func exportWrapsAs(pass *analysis.Pass) {
	wraps := make(map[*types.Func]bool)
	isAs := func(fn *types.Func) bool {
		return ctxorigin.IsErrorsAs(fn) || wraps[fn] || fn != nil && fn.Pkg() != pass.Pkg && pass.ImportObjectFact(fn, new(wrapsAs))
	}
	for _, d := range declsOf(pass) {
		if d.obj.Signature().Recv() == nil && asBody(pass.TypesInfo, d.fd, isAs) {
			wraps[d.obj] = true
			pass.ExportObjectFact(d.obj, new(wrapsAs))
		}
	}
}

// asBody reports whether fd's body is a single return of a call of an As (isAs) with fd's two
// parameters, in order.
func asBody(info *types.Info, fd *ast.FuncDecl, isAs func(*types.Func) bool) bool {
	params := fd.Type.Params.List
	var names []*ast.Ident
	for _, f := range params {
		names = append(names, f.Names...)
	}
	if len(names) != 2 || len(fd.Body.List) != 1 {
		return false
	}
	ret, ok := fd.Body.List[0].(*ast.ReturnStmt)
	if !ok || len(ret.Results) != 1 {
		return false
	}
	call, ok := ast.Unparen(ret.Results[0]).(*ast.CallExpr)
	if !ok || len(call.Args) != 2 {
		return false
	}
	fn, _ := typeutil.Callee(info, call).(*types.Func)
	if !isAs(fn) {
		return false
	}
	for i, a := range call.Args {
		id, ok := ast.Unparen(a).(*ast.Ident)
		if !ok || info.Uses[id] == nil || info.Uses[id] != info.Defs[names[i]] {
			return false
		}
	}
	return true
}

// ErrorsAs reports whether fn answers as errors.As does (ctxorigin.IsErrorsAs), or only calls
// a function that does (wrapsAs).
func (r *Result) ErrorsAs(fn *types.Func) bool {
	return ctxorigin.IsErrorsAs(fn) || fn != nil && r.pass.ImportObjectFact(fn, new(wrapsAs))
}
