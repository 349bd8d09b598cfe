package ctxssa

import (
	"fmt"
	"go/ast"
	"go/types"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/types/typeutil"
)

// A function literal handed to a function that never refers to the parameter it is given as
// never runs: a marker whose body a build tool rewrites (failpoint.Inject("name", func() { … })
// is empty in production), a hook that is a no-op. Nothing in such a literal loses a deadline,
// and its span is dead for every rule (Result.Dead). The parameter is known from the callee's
// syntax: in this package, or in another by its unusedParams fact. A callee out of sight, or
// one that refers to the parameter at all — to call, store or pass it on — may run it.

// unusedParams is the fact of a function with a body that never refers to some of its
// parameters of function or interface type: their indexes among the declared parameters
// (the receiver not counted).
type unusedParams struct{ Params []int }

// AFact marks unusedParams as an analysis fact.
func (*unusedParams) AFact() {}

func (f *unusedParams) String() string { return fmt.Sprintf("unused params %v", f.Params) }

// exportUnused exports an unusedParams fact for each function and method of the package, with
// a body, that never refers to one of its parameters a function value can be given as, and
// returns them.
func exportUnused(pass *analysis.Pass) map[*types.Func][]int {
	used := usedObjects(pass)
	out := make(map[*types.Func][]int)
	for _, d := range declsOf(pass) {
		params := d.obj.Signature().Params()
		var unused []int
		for i := 0; i < params.Len(); i++ {
			if p := params.At(i); takesFunc(p.Type()) && !used[p] {
				unused = append(unused, i)
			}
		}
		if len(unused) > 0 {
			out[d.obj] = unused
			pass.ExportObjectFact(d.obj, &unusedParams{Params: unused})
		}
	}
	return out
}

// takesFunc reports whether a function literal can be passed as a parameter of type t: a
// function type, or an interface with no methods (interface{}, any).
func takesFunc(t types.Type) bool {
	switch u := t.Underlying().(type) {
	case *types.Signature:
		return true
	case *types.Interface:
		return u.NumMethods() == 0
	}
	return false
}

// unrunLiterals returns the spans of the function literals of the package's files handed, as
// a non-variadic argument, to a static call of a function that never refers to that parameter.
func (r *Result) unrunLiterals() []span {
	var out []span
	for _, f := range r.pass.Files {
		ast.Inspect(f, func(n ast.Node) bool {
			call, ok := n.(*ast.CallExpr)
			if !ok {
				return true
			}
			callee := typeutil.StaticCallee(r.pass.TypesInfo, call)
			if callee == nil {
				return true
			}
			sig := callee.Signature()
			shift := 0 // a method expression, (*T).M(recv, …), passes the receiver first
			if sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr); ok {
				if s := r.pass.TypesInfo.Selections[sel]; s != nil && s.Kind() == types.MethodExpr {
					shift = 1
				}
			}
			for j, arg := range call.Args {
				i := j - shift
				lit, isLit := ast.Unparen(arg).(*ast.FuncLit)
				if !isLit || i < 0 || sig.Variadic() && i >= sig.Params().Len()-1 {
					continue
				}
				if r.paramUnused(callee.Origin(), i) {
					out = append(out, span{lit.Pos(), lit.End()})
				}
			}
			return true
		})
	}
	return out
}

// paramUnused reports whether fn never refers to its i-th declared parameter: by the package's
// own syntax, or by fn's fact.
func (r *Result) paramUnused(fn *types.Func, i int) bool {
	var unused []int
	if fn.Pkg() == r.pass.Pkg {
		unused = r.unused[fn]
	} else {
		var f unusedParams
		if r.pass.ImportObjectFact(fn, &f) {
			unused = f.Params
		}
	}
	for _, k := range unused {
		if k == i {
			return true
		}
	}
	return false
}
