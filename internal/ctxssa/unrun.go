package ctxssa

import (
	"fmt"
	"go/types"
	"slices"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/ssa"

	"github.com/deadlinelint/deadlinelint/internal/ctxorigin"
)

// A function literal handed to a function that never refers to the parameter it is given as
// never runs: a marker whose body a build tool rewrites (failpoint.Inject("name", func() { … })
// is empty in production), a hook that is a no-op. Nothing in such a literal loses a deadline:
// buildSSA leaves it out of the functions the rules check (neverRun). The parameter is known from
// the callee's syntax: in this package, or in another by its unusedParams fact. A callee out of
// sight, or one that refers to the parameter at all — to call, store or pass it on — may run it.

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

// neverRun reports whether the function literal fn is only ever handed, as an argument, to
// static calls of functions that never refer to the parameter it is given as (through a
// conversion to an interface too): it never runs, so it is no function the rules check (as
// ctxorigin.NeverMade, which buildSSA leaves out the same way).
func (r *Result) neverRun(fn *ssa.Function) bool {
	if fn.Referrers() == nil {
		return false
	}
	vals := []ssa.Value{fn}
	for _, ref := range *fn.Referrers() {
		if mc, ok := ref.(*ssa.MakeClosure); ok {
			vals = append(vals, mc)
		}
	}
	handed := false
	for _, v := range vals {
		for _, ref := range *v.Referrers() {
			if _, made := ref.(*ssa.MakeClosure); made && v == fn {
				continue // the closure, among vals
			}
			if !r.handedUnused(v, ref, 0) {
				return false
			}
			handed = true
		}
	}
	return handed
}

// handedUnused reports whether ref, a use of the function value v, only hands it to functions
// that never refer to the parameter it is given as.
func (r *Result) handedUnused(v ssa.Value, ref ssa.Instruction, depth int) bool {
	switch ref := ref.(type) {
	case *ssa.DebugRef:
		return true
	case *ssa.MakeInterface, *ssa.ChangeType:
		refs := ref.(ssa.Value).Referrers()
		if refs == nil || len(*refs) == 0 || depth > 2 {
			return false
		}
		for _, rr := range *refs {
			if !r.handedUnused(ref.(ssa.Value), rr, depth+1) {
				return false
			}
		}
		return true
	case *ssa.Call:
		common := ref.Common()
		callee := ctxorigin.Callee(common)
		if common.IsInvoke() || common.Value == v || callee == nil {
			return false
		}
		shift := 0 // a method called with its receiver among the arguments
		if ctxorigin.ReceiverInArgs(common, callee) {
			shift = 1
		}
		for k, a := range common.Args {
			if a == v && !r.paramUnused(callee.Origin(), k-shift) {
				return false
			}
		}
		return true
	}
	return false
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
	return slices.Contains(unused, i)
}
