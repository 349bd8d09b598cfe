package ctxssa

import (
	"go/ast"
	"go/types"

	"golang.org/x/tools/go/analysis"

	"github.com/deadlinelint/deadlinelint/internal/typesutil"
)

// startsCtx is the fact of a function or method that uses its ctx only in goroutines it
// starts: a waiter or a watcher (t.Wait(ctx) returning a channel its goroutine fills), whose
// work has a lifetime of its own — the ctx it is given is that lifetime, not a request's.
type startsCtx struct{}

// AFact marks startsCtx as an analysis fact.
func (*startsCtx) AFact() {}

func (*startsCtx) String() string { return "starts goroutines with ctx" }

// StartsOnly reports whether fn takes a ctx and uses it only in goroutines it starts — as the
// argument of a go statement, or inside a function literal a go statement runs: known from
// its syntax in this package, from its fact in another.
func (r *Result) StartsOnly(fn *types.Func) bool {
	fn = fn.Origin()
	if fn.Pkg() == r.pass.Pkg {
		return r.starts[fn]
	}
	return r.pass.ImportObjectFact(fn, new(startsCtx))
}

// exportStarts exports a startsCtx fact for each function and method of the package whose ctx
// parameters are used, and only in goroutines it starts. It is a syntactic test, cheap enough
// for every dependency.
func exportStarts(pass *analysis.Pass) map[*types.Func]bool {
	out := make(map[*types.Func]bool)
	for _, d := range declsOf(pass) {
		if typesutil.CtxParamIndex(d.obj.Signature()) >= 0 && onlyInGoroutines(pass.TypesInfo, d.fd) {
			out[d.obj] = true
			pass.ExportObjectFact(d.obj, new(startsCtx))
		}
	}
	return out
}

// onlyInGoroutines reports whether fd refers to its ctx parameters at least once, and only in
// goroutines it starts.
func onlyInGoroutines(info *types.Info, fd *ast.FuncDecl) bool {
	ok, used := everyCtxUse(info, fd, inGoroutine)
	return ok && used
}

// inGoroutine reports whether the identifier id, under the nodes stack, is evaluated on a
// goroutine the function starts: an argument of a go statement's call (go watch(ctx, ch)), or
// anywhere inside a function literal a go statement calls (go func() { … ctx … }()). An
// argument of a call nested in a go statement's arguments is evaluated before it starts.
func inGoroutine(id *ast.Ident, stack []ast.Node) bool {
	if n := len(stack); n >= 2 {
		if call, ok := stack[n-1].(*ast.CallExpr); ok && call.Fun != id {
			if g, ok := stack[n-2].(*ast.GoStmt); ok && g.Call == call {
				return true
			}
		}
	}
	for i := len(stack) - 1; i >= 2; i-- {
		lit, ok := stack[i].(*ast.FuncLit)
		if !ok {
			continue
		}
		if call, ok := stack[i-1].(*ast.CallExpr); ok && call.Fun == lit {
			if g, ok := stack[i-2].(*ast.GoStmt); ok && g.Call == call {
				return true
			}
		}
	}
	return false
}

// ctxParams returns the named context.Context parameters of fd.
func ctxParams(info *types.Info, fd *ast.FuncDecl) map[types.Object]bool {
	params := make(map[types.Object]bool)
	for _, field := range fd.Type.Params.List {
		for _, name := range field.Names {
			if obj := info.Defs[name]; obj != nil && typesutil.IsContext(obj.Type()) {
				params[obj] = true
			}
		}
	}
	return params
}
