package ctxorigin

import (
	"go/token"

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
