package ctxorigin

import (
	"go/token"
	"go/types"
	"slices"

	"golang.org/x/tools/go/ssa"

	"github.com/deadlinelint/deadlinelint/internal/typesutil"
)

// A ctx setter is a method whose one parameter is a ctx and which returns nothing
// (r.SetContext(ctx)): it gives an object the ctx its later work runs with, and does no work
// itself. What that later work loses depends on the ctx set when it runs.

// IdleCtx reports whether the sink s hands a ctx setter an object's idle ctx, not one for work
// done now: the function set the same object's ctx through the same method before it (the reset
// after the work, r.SetContext(ctx); r.Invoke(…); r.SetContext(context.Background()), as a
// pooled runtime goes back to its pool), or the object is made in the function and kept —
// returned or stored — (a constructor giving a new object its first ctx, which every use sets
// again before its work).
func IdleCtx(s Sink) bool {
	common := s.Instr.Common()
	fn := Callee(common)
	if !isCtxSetter(fn) {
		return false
	}
	x := receiverOf(common, fn)
	if x == nil {
		return false
	}
	return made(x, s.Instr.Parent()) && Kept(x) || setBefore(s.Instr, fn, x)
}

// IdleReset reports whether the sink s is the reset IdleCtx sees — the object's ctx set through
// the same setter before it, in the function — with nothing working with the object after it:
// on every way on, the object is only kept (sent on a channel, stored, returned, put back into
// a sync.Pool) or left; and the setter, a method of the package, only stores the ctx it is
// given. r.SetContext(ctx); r.Run(); r.SetContext(context.Background()); s.pool <- r: the root
// is the ctx r idles with, and the ctx set before its next run decides.
func IdleReset(s Sink) bool {
	common := s.Instr.Common()
	fn := Callee(common)
	if !isCtxSetter(fn) || !onlyStoresCtx(s.Instr.Parent().Prog.FuncValue(fn)) {
		return false
	}
	x := receiverOf(common, fn)
	if x == nil || !setBefore(s.Instr, fn, x) {
		return false
	}
	for _, instr := range after(s.Instr) {
		for _, op := range instr.Operands(nil) {
			if *op != nil && sameObject(*op, x) && !keeps(instr, *op) {
				return false
			}
		}
	}
	return true
}

// setBefore reports whether instr's function sets x's ctx through the setter fn before instr.
func setBefore(instr ssa.CallInstruction, fn *types.Func, x ssa.Value) bool {
	for d := instr.Block(); d != nil; d = d.Idom() {
		for _, i := range d.Instrs {
			if i == instr {
				break
			}
			c, ok := i.(ssa.CallInstruction)
			if ok && Callee(c.Common()) == fn && sameObject(receiverOf(c.Common(), fn), x) {
				return true
			}
		}
	}
	return false
}

// onlyStoresCtx reports whether the setter fn, with its body in sight, uses its ctx parameter
// only to store it.
func onlyStoresCtx(fn *ssa.Function) bool {
	if fn == nil || fn.Blocks == nil || len(fn.Params) != 2 {
		return false
	}
	for _, ref := range *fn.Params[1].Referrers() {
		switch ref := ref.(type) {
		case *ssa.DebugRef:
		case *ssa.Store:
			if ref.Val != fn.Params[1] {
				return false
			}
		default:
			return false
		}
	}
	return true
}

// after returns the instructions that may run after instr in its function: the rest of its
// block and those of every block reachable from it (Reaches).
func after(instr ssa.Instruction) []ssa.Instruction {
	b := instr.Block()
	i := slices.Index(b.Instrs, instr)
	out := slices.Clone(b.Instrs[i+1:])
	for _, x := range b.Parent().Blocks {
		if Reaches(b, x) {
			out = append(out, x.Instrs...)
		}
	}
	return out
}

// keeps reports whether instr, using v, only keeps it: sends it, stores it, returns it, puts it
// back into a sync.Pool (also as the interface value the Put takes), or is a debug reference.
func keeps(instr ssa.Instruction, v ssa.Value) bool {
	switch i := instr.(type) {
	case *ssa.DebugRef, *ssa.Return:
		return true
	case *ssa.Send:
		return i.X == v
	case *ssa.Store:
		return i.Val == v
	case *ssa.MakeInterface:
		for _, ref := range *i.Referrers() {
			if !keeps(ref, i) {
				return false
			}
		}
		return true
	case *ssa.Call:
		return typesutil.IsMethod(Callee(i.Common()), "sync", "Pool", "Put")
	}
	return false
}

// isCtxSetter reports whether fn is a method taking only a ctx and returning nothing.
func isCtxSetter(fn *types.Func) bool {
	if fn == nil {
		return false
	}
	sig := fn.Signature()
	return sig.Recv() != nil && sig.Params().Len() == 1 && typesutil.IsContext(sig.Params().At(0).Type()) && sig.Results().Len() == 0
}

// ReceiverOf returns the receiver a call is made on (receiverOf, for its callee): the
// interface value of an invoke, the first argument of a static method call; nil otherwise.
func ReceiverOf(common *ssa.CallCommon) ssa.Value {
	fn := Callee(common)
	if fn == nil {
		return nil
	}
	return receiverOf(common, fn)
}

// receiverOf returns the receiver of a call of the method fn: the interface value of an invoke,
// the first argument of a call that passes it (ReceiverInArgs); nil for a method value's call,
// whose receiver is bound.
func receiverOf(common *ssa.CallCommon, fn *types.Func) ssa.Value {
	if common.IsInvoke() {
		return common.Value
	}
	if ReceiverInArgs(common, fn) {
		return common.Args[0]
	}
	return nil
}

// made reports whether x is made in fn: a new value (&T{…}, new(T)) or the result of a call there.
func made(x ssa.Value, fn *ssa.Function) bool {
	switch x := x.(type) {
	case *ssa.Alloc:
		return x.Heap && x.Parent() == fn
	case *ssa.Call:
		return x.Parent() == fn
	}
	return false
}

// sameObject reports whether x and y are the same value, or loads of the same field path from
// it (r.vm in two statements). Unlike sameBase (FirstUse's), two loads match when their
// addresses do, not only when they are one address value.
func sameObject(x, y ssa.Value) bool {
	if x == y {
		return true
	}
	switch x := x.(type) {
	case *ssa.FieldAddr:
		y, ok := y.(*ssa.FieldAddr)
		return ok && x.Field == y.Field && sameObject(x.X, y.X)
	case *ssa.UnOp:
		y, ok := y.(*ssa.UnOp)
		return ok && x.Op == token.MUL && y.Op == token.MUL && sameObject(x.X, y.X)
	}
	return false
}

// Kept reports whether the value v is returned or stored — kept for later — rather than only
// used where it is made: through phis and conversions, a few steps deep.
func Kept(v ssa.Value) bool { return kept(v, 0) }

func kept(v ssa.Value, depth int) bool {
	if depth > 4 {
		return false
	}
	for _, ref := range *v.Referrers() {
		switch ref := ref.(type) {
		case *ssa.Return, *ssa.MapUpdate:
			return true
		case *ssa.Store:
			if ref.Val == v {
				return true
			}
		case *ssa.Phi, *ssa.MakeInterface, *ssa.ChangeType, *ssa.ChangeInterface:
			if kept(ref.(ssa.Value), depth+1) {
				return true
			}
		}
	}
	return false
}

// KeptHere reports whether the value v is stored, by the function that makes it, where it
// outlives the call — a field of an object the function was given (a receiver's, a parameter's,
// one loaded from elsewhere), a package variable, a map held in either — and is not closed
// there (cc.Close(), deferred or in a literal): kept for later requests whatever the caller does
// with what the function returns. A field of an object the function makes (a wrapper it
// returns), a captured variable or a local container is not such a place.
func KeptHere(v ssa.Value) bool {
	stored := false
	var walk func(v ssa.Value, depth int) bool
	walk = func(v ssa.Value, depth int) bool {
		if depth > 4 {
			return false
		}
		for _, ref := range *v.Referrers() {
			switch ref := ref.(type) {
			case *ssa.MapUpdate: // into a map held where it outlives the call (a cache's)
				if load, ok := ref.Map.(*ssa.UnOp); ok && ref.Value == v && load.Op == token.MUL && outlivesCall(load.X) {
					stored = true
				}
			case *ssa.Store:
				if ref.Val == v && outlivesCall(ref.Addr) {
					stored = true
				}
			case *ssa.Phi, *ssa.MakeInterface, *ssa.ChangeType, *ssa.ChangeInterface:
				if !walk(ref.(ssa.Value), depth+1) {
					return false
				}
			case *ssa.MakeClosure: // captured: closed in the literal?
				for i, b := range ref.Bindings {
					if b == v && closedIn(ref.Fn.(*ssa.Function).FreeVars[i]) {
						return false
					}
				}
			case ssa.CallInstruction:
				if closes(ref.Common(), v) {
					return false
				}
			}
		}
		return true
	}
	return walk(v, 0) && stored
}

// closes reports whether common calls v's Close method.
func closes(common *ssa.CallCommon, v ssa.Value) bool {
	if common.IsInvoke() {
		return common.Value == v && common.Method.Name() == "Close"
	}
	fn := Callee(common)
	return fn != nil && fn.Name() == "Close" && fn.Signature().Recv() != nil && len(common.Args) > 0 && common.Args[0] == v
}

// closedIn reports whether the literal that captures fv calls its Close method.
func closedIn(fv *ssa.FreeVar) bool {
	for _, ref := range *fv.Referrers() {
		if call, ok := ref.(ssa.CallInstruction); ok && closes(call.Common(), fv) {
			return true
		}
	}
	return false
}

// outlivesCall reports whether a store to addr lands where it outlives the function storing it: a
// package variable, or a field of an object the function did not allocate itself.
func outlivesCall(addr ssa.Value) bool {
	switch a := addr.(type) {
	case *ssa.Global:
		return true
	case *ssa.FieldAddr:
		_, fresh := a.X.(*ssa.Alloc)
		return !fresh
	}
	return false
}
