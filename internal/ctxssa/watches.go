package ctxssa

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"slices"

	"golang.org/x/tools/go/analysis"

	"github.com/deadlinelint/deadlinelint/internal/typesutil"
)

// A function handed a long-lived ctx and the request too — a server's lifetime and a
// follower's stream, Sync(s.life, stream) — may wait on both: on the server stopping and on the
// client leaving. When it does, the lifetime ctx is its choice of when to stop for the server,
// and the request's end is watched beside it; nothing outlives the request through the call.

// watchesParams is the fact of a function that, in its own body, receives from the Done
// channel of the request some of its parameters carry: the parameter itself, a ctx
// (<-req.Done()), or a stream's ctx (<-stream.Context().Done(), or a local set once to
// stream.Context()). Their indexes among the declared parameters (the receiver not counted).
type watchesParams struct{ Params []int }

// AFact marks watchesParams as an analysis fact.
func (*watchesParams) AFact() {}

func (f *watchesParams) String() string { return fmt.Sprintf("watches params %v", f.Params) }

// exportWatches exports a watchesParams fact for each function and method of the package that
// waits on the end of a parameter's request, and returns them.
func exportWatches(pass *analysis.Pass) map[*types.Func][]int {
	out := make(map[*types.Func][]int)
	for _, d := range declsOf(pass) {
		if w := watched(pass.TypesInfo, d.fd); len(w) > 0 {
			out[d.obj] = w
			pass.ExportObjectFact(d.obj, &watchesParams{Params: w})
		}
	}
	return out
}

// watched returns the indexes of fd's parameters whose Done channel its body receives from,
// outside the function literals it makes (a goroutine's wait is not the function's).
func watched(info *types.Info, fd *ast.FuncDecl) []int {
	params := make(map[*types.Var]int)
	k := 0
	for _, field := range fd.Type.Params.List {
		if len(field.Names) == 0 {
			k++
			continue
		}
		for _, name := range field.Names {
			if v, ok := info.Defs[name].(*types.Var); ok {
				params[v] = k
			}
			k++
		}
	}
	if len(params) == 0 {
		return nil
	}
	// A local set once, to a parameter's Context(): left := stream.Context().
	aliases := make(map[*types.Var]int)
	sets := make(map[*types.Var]int)
	ast.Inspect(fd.Body, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.FuncLit:
			return false
		case *ast.AssignStmt:
			for i, lhs := range n.Lhs {
				id, ok := lhs.(*ast.Ident)
				if !ok {
					continue
				}
				v, _ := info.ObjectOf(id).(*types.Var)
				if v == nil {
					continue
				}
				sets[v]++
				if len(n.Lhs) == len(n.Rhs) {
					if p, ok := contextOf(info, n.Rhs[i], params); ok {
						aliases[v] = p
					}
				}
			}
		}
		return true
	})
	var out []int
	ast.Inspect(fd.Body, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.FuncLit:
			return false
		case *ast.UnaryExpr:
			if n.Op != token.ARROW {
				return true
			}
			call, ok := ast.Unparen(n.X).(*ast.CallExpr)
			if !ok || len(call.Args) != 0 {
				return true
			}
			sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr)
			if !ok || sel.Sel.Name != "Done" || !typesutil.IsContext(info.TypeOf(sel.X)) {
				return true
			}
			if p, ok := requestOf(info, sel.X, params, aliases, sets); ok && !slices.Contains(out, p) {
				out = append(out, p)
			}
		}
		return true
	})
	slices.Sort(out)
	return out
}

// requestOf returns the index of the parameter whose request the ctx expression e is: the
// parameter itself, its Context(), or a local set once to that.
func requestOf(info *types.Info, e ast.Expr, params, aliases, sets map[*types.Var]int) (int, bool) {
	if id, ok := ast.Unparen(e).(*ast.Ident); ok {
		v, _ := info.ObjectOf(id).(*types.Var)
		if p, ok := params[v]; ok {
			return p, true
		}
		if p, ok := aliases[v]; ok && sets[v] == 1 {
			return p, true
		}
		return 0, false
	}
	return contextOf(info, e, params)
}

// contextOf returns the index of the parameter p when e is p.Context().
func contextOf(info *types.Info, e ast.Expr, params map[*types.Var]int) (int, bool) {
	call, ok := ast.Unparen(e).(*ast.CallExpr)
	if !ok || len(call.Args) != 0 {
		return 0, false
	}
	sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr)
	if !ok || sel.Sel.Name != "Context" || !typesutil.IsContext(info.TypeOf(call)) {
		return 0, false
	}
	id, ok := ast.Unparen(sel.X).(*ast.Ident)
	if !ok {
		return 0, false
	}
	v, _ := info.ObjectOf(id).(*types.Var)
	p, ok := params[v]
	return p, ok
}

// Watches reports whether fn waits, in its own body, on the end of the request its i-th
// declared parameter carries: by the package's own syntax, or by fn's fact.
func (r *Result) Watches(fn *types.Func, i int) bool {
	var w []int
	if fn.Pkg() == r.pass.Pkg {
		w = r.watches[fn]
	} else {
		var f watchesParams
		if r.pass.ImportObjectFact(fn, &f) {
			w = f.Params
		}
	}
	return slices.Contains(w, i)
}
