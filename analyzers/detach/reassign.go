package detach

import (
	"go/token"

	"golang.org/x/tools/go/ssa"

	"github.com/deadlinelint/deadlinelint/internal/ctxorigin"
	"github.com/deadlinelint/deadlinelint/internal/typesutil"
)

// The origins of a value loaded from a variable captured by a closure are the union of every
// value stored to it, in any order. For
//
//	actx := context.WithoutCancel(ctx)
//	actx, cancel := context.WithTimeout(actx, time.Second)
//	go func() { use(actx) }()
//
// that union holds the detached ctx both without and with its deadline, although the
// goroutine can only see the bounded one. Until ctxorigin orders the stores, a sink whose
// detached origin comes both bounded and unbounded through such a re-assigned variable is
// a cannot-tell, and the rule stays silent on it.

// mixed reports whether set holds the origin o's creating call also with a deadline.
func mixed(set ctxorigin.Set, o ctxorigin.Origin) bool {
	for _, x := range set {
		if x.Kind == o.Kind && x.Call == o.Call && x.Param == o.Param && x.Deadline {
			return true
		}
	}
	return false
}

// viaReassignedVar reports whether the ctx value v is computed from a load of a variable that
// is stored to more than once, following the derivations the resolver follows inside v's
// function.
func viaReassignedVar(v ssa.Value) bool {
	return walkCtx(v, make(map[ssa.Value]bool))
}

func walkCtx(v ssa.Value, seen map[ssa.Value]bool) bool {
	if seen[v] {
		return false
	}
	seen[v] = true
	switch v := v.(type) {
	case *ssa.UnOp:
		return v.Op == token.MUL && storeCount(v.X, make(map[ssa.Value]bool)) > 1
	case *ssa.Phi:
		for _, e := range v.Edges {
			if walkCtx(e, seen) {
				return true
			}
		}
	case *ssa.Extract:
		return walkCtx(v.Tuple, seen)
	case *ssa.Call:
		for _, a := range v.Call.Args {
			if typesutil.IsContext(a.Type()) && walkCtx(a, seen) {
				return true
			}
		}
	case *ssa.ChangeInterface:
		return walkCtx(v.X, seen)
	case *ssa.MakeInterface:
		return walkCtx(v.X, seen)
	case *ssa.ChangeType:
		return walkCtx(v.X, seen)
	case *ssa.TypeAssert:
		return walkCtx(v.X, seen)
	}
	return false
}

// storeCount counts the stores to the variable at addr (an Alloc, or a FreeVar of a closure
// capturing one), in its function and in every closure that captures it.
func storeCount(addr ssa.Value, seen map[ssa.Value]bool) int {
	if seen[addr] {
		return 0
	}
	seen[addr] = true
	n := 0
	switch a := addr.(type) {
	case *ssa.FreeVar:
		for _, b := range bindings(a) {
			n += storeCount(b, seen)
		}
	case *ssa.Alloc:
	default:
		return 0
	}
	for _, ref := range *addr.Referrers() {
		switch ref := ref.(type) {
		case *ssa.Store:
			if ref.Addr == addr {
				n++
			}
		case *ssa.MakeClosure:
			for i, b := range ref.Bindings {
				if b == addr {
					n += storeCount(ref.Fn.(*ssa.Function).FreeVars[i], seen)
				}
			}
		}
	}
	return n
}

// bindings returns the values the MakeClosure instructions creating fv's function bind to fv.
func bindings(fv *ssa.FreeVar) []ssa.Value {
	fn := fv.Parent()
	idx := -1
	for i, x := range fn.FreeVars {
		if x == fv {
			idx = i
		}
	}
	refs := fn.Referrers()
	if idx < 0 || refs == nil {
		return nil
	}
	var out []ssa.Value
	for _, ref := range *refs {
		if mc, ok := ref.(*ssa.MakeClosure); ok && mc.Fn == fn {
			out = append(out, mc.Bindings[idx])
		}
	}
	return out
}
