package scope

import (
	"go/token"
	"go/types"

	"golang.org/x/tools/go/ssa"

	"github.com/deadlinelint/deadlinelint/internal/typesutil"
	"github.com/deadlinelint/deadlinelint/internal/valueflow"
)

// startedOnly returns the scopes of the declared functions of funcs that run only as goroutines
// of request scopes: unexported (nothing outside the package calls them), referred to only by
// go statements in scopes — no other call, no method value, no interface call of a method of
// that name — each passing the scope's request ctx (its ctx parameter, or its stream's
// Context()) as the function's ctx parameter. go s.flush(ctx, id) runs flush for the request.
func startedOnly(funcs []*ssa.Function, set *Set) []*Scope {
	starts := make(map[*ssa.Function][]*ssa.Go)
	other := make(map[*ssa.Function]bool)
	invoked := make(map[string]bool)
	for _, fn := range funcs {
		for _, b := range fn.Blocks {
			for _, instr := range b.Instrs {
				if c, ok := instr.(ssa.CallInstruction); ok && c.Common().IsInvoke() {
					invoked[c.Common().Method.Name()] = true
				}
				g, isGo := instr.(*ssa.Go)
				for _, op := range instr.Operands(nil) {
					callee := referredFunc(*op)
					if callee == nil {
						continue
					}
					if isGo && op == &g.Call.Value && set.byFunc[fn] != nil {
						starts[callee] = append(starts[callee], g)
					} else {
						other[callee] = true
					}
				}
			}
		}
	}
	var out []*Scope
	for _, fn := range funcs {
		gos := starts[fn]
		if len(gos) == 0 || other[fn] || fn.Parent() != nil || set.byFunc[fn] != nil || !unexported(fn) {
			continue
		}
		if fn.Signature.Recv() != nil && invoked[fn.Name()] {
			continue // perhaps also called through an interface
		}
		if sc := startedScope(fn, gos, set); sc != nil {
			out = append(out, sc)
		}
	}
	return out
}

// startedScope returns the scope of fn, started by gos, when every one of them passes its
// scope's request ctx as the same ctx parameter of fn.
func startedScope(fn *ssa.Function, gos []*ssa.Go, set *Set) *Scope {
	i := typesutil.CtxParamIndex(fn.Signature)
	if fn.Signature.Recv() != nil && i >= 0 {
		i++ // SSA parameters and static call arguments start with the receiver
	}
	if i < 0 || i >= len(fn.Params) {
		return nil
	}
	var parent *Scope
	for _, g := range gos {
		sc := set.byFunc[g.Parent()]
		args := g.Call.Args
		if sc == nil || i >= len(args) || !isRequestCtx(args[i], sc.Handler()) {
			return nil
		}
		if parent == nil {
			parent = sc
		}
	}
	sc := &Scope{Func: fn, Kind: Started, Parent: parent, Ctx: fn.Params[i]}
	if fn.Signature.Recv() != nil && startedOnReceiver(gos, set) {
		sc.Recv = fn.Params[0] // go s.follow(ctx, …) from a handler of s: the server itself
	}
	return sc
}

// startedOnReceiver reports whether every go statement of gos starts its method on the receiver
// of the handler whose scope it is in.
func startedOnReceiver(gos []*ssa.Go, set *Set) bool {
	for _, g := range gos {
		sc := set.byFunc[g.Parent()]
		if sc == nil || len(g.Call.Args) == 0 {
			return false
		}
		recv, ok := held(g.Call.Args[0]).(*ssa.Parameter)
		if !ok || !set.recvs[recv] {
			return false
		}
	}
	return len(gos) > 0
}

// isRequestCtx reports whether v is, as written, the request ctx of the scope h: its ctx
// parameter, or its stream's Context().
func isRequestCtx(v ssa.Value, h *Scope) bool {
	v = held(v)
	if h.Ctx != nil && v == h.Ctx {
		return true
	}
	call, ok := v.(*ssa.Call)
	if !ok || h.Stream == nil || call.Common().Method == nil || call.Common().Method.Name() != "Context" {
		return false
	}
	return held(call.Common().Value) == h.Stream
}

// held returns v or, when v is loaded from a local variable assigned once in its function (a
// parameter that a literal captures lives in such a variable), the value stored there.
func held(v ssa.Value) ssa.Value {
	if u, ok := v.(*ssa.UnOp); ok && u.Op == token.MUL {
		if alloc, ok := u.X.(*ssa.Alloc); ok {
			if vs := valueflow.LocalStores(alloc); len(vs) == 1 {
				return vs[0]
			}
		}
	}
	return v
}

// referredFunc returns the declared function the operand v refers to: itself, or the method a
// synthetic wrapper (a method value's $bound, a method expression's thunk) calls.
func referredFunc(v ssa.Value) *ssa.Function {
	fn, ok := v.(*ssa.Function)
	if !ok {
		return nil
	}
	if fn.Synthetic != "" {
		if obj, ok := fn.Object().(*types.Func); ok {
			return fn.Prog.FuncValue(obj)
		}
		return nil
	}
	return fn
}

// unexported reports whether fn cannot be named outside its package.
func unexported(fn *ssa.Function) bool {
	obj, ok := fn.Object().(*types.Func)
	return ok && !obj.Exported()
}
