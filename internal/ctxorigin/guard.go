package ctxorigin

import (
	"go/token"
	"go/types"
	"slices"

	"golang.org/x/tools/go/ssa"

	"github.com/deadlinelint/deadlinelint/internal/typesutil"
)

// NilGuarded reports whether call runs only when some ctx is nil: the fallback in
// `if ctx == nil { ctx = context.Background() }`, which replaces no caller's ctx.
func NilGuarded(call *ssa.Call) bool {
	b := call.Block()
	for d := b.Idom(); d != nil; d = d.Idom() {
		cond, ok := d.Instrs[len(d.Instrs)-1].(*ssa.If)
		if !ok {
			continue
		}
		op, ok := cond.Cond.(*ssa.BinOp)
		if !ok || !comparesCtxWithNil(op) {
			continue
		}
		nilSide := d.Succs[0] // the "then" block of ctx == nil
		if op.Op == token.NEQ {
			nilSide = d.Succs[1]
		}
		if nilSide.Dominates(b) {
			return true
		}
	}
	return false
}

// comparesCtxWithNil reports whether op is `x == nil` or `x != nil` for a ctx x.
func comparesCtxWithNil(op *ssa.BinOp) bool {
	if op.Op != token.EQL && op.Op != token.NEQ {
		return false
	}
	isNil := func(v ssa.Value) bool {
		c, ok := v.(*ssa.Const)
		return ok && c.IsNil()
	}
	return isNil(op.Y) && typesutil.IsContext(op.X.Type()) || isNil(op.X) && typesutil.IsContext(op.Y.Type())
}

// ReplacesNoCtx reports whether the root context created by call stands in for no caller's
// ctx: the fallback of a nil check (NilGuarded), or a one-time initialisation run by sync.Once
// (InOnce), whose shared result must not depend on the request that happens to trigger it.
func ReplacesNoCtx(call *ssa.Call) bool { return NilGuarded(call) || InOnce(call) }

// InOnce reports whether call is made inside a function literal that sync.Once's Do,
// sync.OnceFunc, OnceValue or OnceValues runs (directly, or in a literal nested in it): the
// one-time initialisation of state shared by every later request, which must not be cut
// short by the one request that happens to trigger it.
func InOnce(call *ssa.Call) bool {
	for fn := call.Parent(); fn.Parent() != nil; fn = fn.Parent() {
		if runByOnce(fn) {
			return true
		}
	}
	return false
}

// runByOnce reports whether the function literal fn is passed to sync.Once.Do or one of the
// sync.Once* wrappers.
func runByOnce(fn *ssa.Function) bool {
	vals := []ssa.Value{fn}
	if refs := fn.Referrers(); refs != nil {
		for _, ref := range *refs {
			if mc, ok := ref.(*ssa.MakeClosure); ok {
				vals = append(vals, mc)
			}
		}
	}
	for _, v := range vals {
		refs := v.Referrers()
		if refs == nil {
			continue
		}
		for _, ref := range *refs {
			call, ok := ref.(*ssa.Call)
			if ok && isOnceRunner(Callee(call.Common())) && slices.Contains(call.Common().Args, v) {
				return true
			}
		}
	}
	return false
}

// isOnceRunner reports whether fn runs its function argument at most once.
func isOnceRunner(fn *types.Func) bool {
	return typesutil.IsMethod(fn, "sync", "Once", "Do") ||
		typesutil.IsFunc(fn, "sync", "OnceFunc") ||
		typesutil.IsFunc(fn, "sync", "OnceValue") ||
		typesutil.IsFunc(fn, "sync", "OnceValues")
}
