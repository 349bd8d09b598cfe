// Package reqctx tells a rule how to name a request scope and its request ctx in a message,
// and whether the request ctx can be written, as is, at a given position in a suggested fix.
package reqctx

import (
	"go/ast"
	"go/token"
	"go/types"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/ast/astutil"
	"golang.org/x/tools/go/ssa"

	"github.com/deadlinelint/deadlinelint/internal/scope"
)

// Expr returns how the request ctx of sc is spelled in a message, and the expression that
// denotes it at pos for a suggested fix: "ctx" or "stream.Context()". The expression is ""
// when the name does not resolve to the request's parameter at pos (a blank or unnamed
// parameter, or a name shadowed by a closure parameter or a local variable); the spelling is
// then a description such as "the request ctx". It is also "" inside a goroutine started in
// the scope (scope.InGoroutine): there the request ctx may be cancelled before the goroutine
// is done, so passing it is no mechanical fix.
func Expr(pass *analysis.Pass, sc *scope.Scope, pos token.Pos) (spelled, expr string) {
	spelled, expr = expr0(pass, sc, pos)
	if sc.InGoroutine() {
		expr = ""
	}
	return spelled, expr
}

func expr0(pass *analysis.Pass, sc *scope.Scope, pos token.Pos) (spelled, expr string) {
	h := sc.Handler()
	for s := sc; s != nil; s = s.Parent {
		if s.Kind == scope.Started {
			h = s // a function a scope starts: the request ctx is its own parameter
			break
		}
	}
	switch {
	case h.Ctx != nil:
		if name := h.Ctx.Name(); Visible(pass, h.Ctx, pos) {
			return name, name
		}
		return "the request ctx", ""
	case h.Stream != nil:
		if name := h.Stream.Name(); Visible(pass, h.Stream, pos) {
			return name + ".Context()", name + ".Context()"
		}
		return "the stream's Context()", ""
	}
	return "the request ctx", ""
}

// Where names the scope for a message: "handler Catalog.GetItem", "interceptor logUnary",
// "request scope refresh".
func Where(sc *scope.Scope) string {
	switch sc.Handler().Kind {
	case scope.Interceptor:
		return "interceptor " + sc.Name()
	case scope.Marked:
		return "request scope " + sc.Name()
	}
	return "handler " + sc.Name()
}

// Visible reports whether p's name resolves to p itself at pos: p is named (not _), and no
// closure parameter or local variable declared on the way shadows it.
func Visible(pass *analysis.Pass, p *ssa.Parameter, pos token.Pos) bool {
	obj := p.Object()
	if obj == nil || obj.Name() == "_" || obj.Name() == "" {
		return false
	}
	inner := pass.Pkg.Scope().Innermost(pos)
	if inner == nil {
		return false
	}
	_, found := inner.LookupParent(obj.Name(), pos)
	return found == types.Object(obj)
}

// ImportStays reports whether the call expression at [pos, end) of file, a root spelled
// pkg.F() (context.Background()), can be replaced by another expression without leaving pkg's
// import unused: the file names the package somewhere else too. A root spelled otherwise (a
// function value, mk()) is not replaced.
func ImportStays(pass *analysis.Pass, file *ast.File, pos, end token.Pos) bool {
	if file == nil {
		return false
	}
	path, _ := astutil.PathEnclosingInterval(file, pos, end)
	if len(path) == 0 {
		return false
	}
	call, ok := path[0].(*ast.CallExpr)
	if !ok || call.Pos() != pos || call.End() != end {
		return false
	}
	sel, ok := call.Fun.(*ast.SelectorExpr)
	if !ok {
		return false
	}
	id, ok := sel.X.(*ast.Ident)
	if !ok {
		return false
	}
	pkg, ok := pass.TypesInfo.Uses[id].(*types.PkgName)
	if !ok {
		return false
	}
	other := false
	ast.Inspect(file, func(n ast.Node) bool {
		if x, ok := n.(*ast.Ident); ok && x != id && pass.TypesInfo.Uses[x] == pkg {
			other = true
		}
		return !other
	})
	return other
}
