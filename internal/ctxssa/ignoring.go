package ctxssa

import (
	"go/types"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/ssa"

	"github.com/deadlinelint/deadlinelint/internal/ctxorigin"
	"github.com/deadlinelint/deadlinelint/internal/typesutil"
)

// A function whose ctx parameters are referred to can still do nothing with them that a
// deadline matters to: it starts a span and drops the ctx the tracer returns, it logs with
// it, it hands it to a function that does the same. ignoring tells those functions apart,
// from their SSA, so that rules do not count a call of one as work.

// ignoring answers, with memoisation, which functions of the package ignore their ctx.
type ignoring struct {
	pass   *analysis.Pass
	res    *Result
	memo   map[*ssa.Function]bool
	active map[*ssa.Function]bool
}

// exportSemanticIgnoring adds to res.ignoring, and exports the fact for, the functions whose
// ctx parameters all reach no work (ignoresParams).
func exportSemanticIgnoring(pass *analysis.Pass, res *Result, info *Info) {
	ig := &ignoring{pass: pass, res: res, memo: make(map[*ssa.Function]bool), active: make(map[*ssa.Function]bool)}
	for _, fn := range info.Funcs {
		obj, ok := fn.Object().(*types.Func)
		if !ok || res.ignoring[obj] || fn.Parent() != nil {
			continue
		}
		if ig.ignoresParams(fn) {
			res.ignoring[obj] = true
			pass.ExportObjectFact(obj, new(ignoresCtx))
		}
	}
}

// ignoresParams reports whether fn takes a ctx and none of its ctx parameters reaches work.
// A cycle of calls is answered "no": it proves nothing.
func (ig *ignoring) ignoresParams(fn *ssa.Function) bool {
	if v, ok := ig.memo[fn]; ok {
		return v
	}
	if ig.active[fn] || fn.Blocks == nil {
		return false
	}
	ig.active[fn] = true
	found, ok := false, true
	for _, p := range fn.Params {
		if typesutil.IsContext(p.Type()) {
			found = true
			ok = ok && ig.noWork(p, 0)
		}
	}
	delete(ig.active, fn)
	ig.memo[fn] = found && ok
	return found && ok
}

// noWork reports whether the ctx value v is used only in ways that do no work with it:
// compared, read from (ctxorigin.IsReader: logging, metadata, span lookups), derived into a
// ctx that itself does no work (a span started and its ctx dropped), or passed to a function
// of the package, or of another with the fact, that ignores its ctx. Any other use (stored,
// returned, captured, sent, converted, handed to a library) may be work.
func (ig *ignoring) noWork(v ssa.Value, depth int) bool {
	if depth > 8 {
		return false
	}
	refs := v.Referrers()
	if refs == nil {
		return true
	}
	for _, ref := range *refs {
		switch ref := ref.(type) {
		case *ssa.DebugRef, *ssa.BinOp:
		case *ssa.Call:
			if !ig.callNoWork(ref, v, depth) {
				return false
			}
		default:
			return false
		}
	}
	return true
}

// callNoWork reports whether the call, given the ctx v, does no work with it.
func (ig *ignoring) callNoWork(call *ssa.Call, v ssa.Value, depth int) bool {
	common := call.Common()
	if common.Value == v {
		return false // a ctx used as the function called: not a ctx
	}
	callee := ctxorigin.Callee(common)
	if ctxorigin.IsReader(callee) {
		return true
	}
	if typesutil.ReturnsContext(common.Signature()) {
		return ig.derivedNoWork(call, depth)
	}
	if common.IsInvoke() || callee == nil {
		return false
	}
	if fn := common.StaticCallee(); fn != nil && fn.Pkg == ig.resPkg() && fn.Object() != nil {
		return ig.ignoresParams(fn)
	}
	return ig.res.Owned(callee) && ig.pass.ImportObjectFact(callee, new(ignoresCtx))
}

// derivedNoWork reports whether the ctx results of call, which returns a ctx derived from its
// argument, do no work.
func (ig *ignoring) derivedNoWork(call *ssa.Call, depth int) bool {
	if _, tuple := call.Type().(*types.Tuple); !tuple {
		return ig.noWork(call, depth+1)
	}
	refs := call.Referrers()
	if refs == nil {
		return true
	}
	for _, ref := range *refs {
		ext, ok := ref.(*ssa.Extract)
		if !ok {
			return false
		}
		if typesutil.IsContext(ext.Type()) && !ig.noWork(ext, depth+1) {
			return false
		}
	}
	return true
}

func (ig *ignoring) resPkg() *ssa.Package { return ig.res.info.Pkg }
