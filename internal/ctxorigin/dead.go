package ctxorigin

import (
	"go/constant"
	"go/token"
	"go/types"

	"golang.org/x/tools/go/ssa"
)

// NeverMade reports whether the function literal fn is made only by code that never runs in
// the build analysed: go/ssa keeps the branch of `if false { go func() { … }() }` (a feature
// switched off, a `const debug = false`, a local that is always false, a comparison of
// runtime.GOOS with another system) as a jump on a constant, so the literal is built, but no
// path from its enclosing function's entry reaches the instruction that makes it — nor, for a
// literal nested in one, the instruction that makes that one. Code after a return leaves the
// literal with no maker at all. What never runs loses no deadline.
func NeverMade(fn *ssa.Function) bool {
	parent := fn.Parent()
	if parent == nil || fn.Referrers() == nil {
		return false
	}
	if NeverMade(parent) {
		return true
	}
	live := LiveBlocks(parent, IsErrorsAs)
	for _, ref := range *fn.Referrers() {
		if b := ref.Block(); b == nil || live[b] {
			return false
		}
	}
	return true
}

// LiveBlocks returns the blocks of fn that a path from its entry reaches, a branch on a
// condition known without running it (knownCond) taking only the way its value goes: code
// under `if false { … }` or a false constant is not among them. isAs tells the functions that
// answer as errors.As does (IsErrorsAs, and wrappers of it by their facts).
func LiveBlocks(fn *ssa.Function, isAs func(*types.Func) bool) map[*ssa.BasicBlock]bool {
	live := make(map[*ssa.BasicBlock]bool)
	if len(fn.Blocks) == 0 {
		return live
	}
	// The recover block runs after a panic, which no edge shows.
	var queue []*ssa.BasicBlock
	for _, b := range []*ssa.BasicBlock{fn.Blocks[0], fn.Recover} {
		if b != nil && !live[b] {
			live[b] = true
			queue = append(queue, b)
		}
	}
	for len(queue) > 0 {
		b := queue[0]
		queue = queue[1:]
		succs := b.Succs
		if cond, ok := b.Instrs[len(b.Instrs)-1].(*ssa.If); ok {
			if v, known := knownCond(cond.Cond, isAs); known {
				if v {
					succs = succs[:1]
				} else {
					succs = succs[1:]
				}
			}
		}
		for _, s := range succs {
			if !live[s] {
				live[s] = true
				queue = append(queue, s)
			}
		}
	}
	return live
}

// knownCond returns the value of a branch condition known without running it: a constant, its
// negation, or errors.As(err, &target) on an err whose dynamic type is known and assignable to
// the target's (concreteType): As answers true before it looks any further.
func knownCond(v ssa.Value, isAs func(*types.Func) bool) (value, known bool) {
	switch v := v.(type) {
	case *ssa.Const:
		if v.Value != nil && v.Value.Kind() == constant.Bool {
			return constant.BoolVal(v.Value), true
		}
	case *ssa.UnOp:
		if v.Op == token.NOT {
			value, known = knownCond(v.X, isAs)
			return !value, known
		}
	case *ssa.Call:
		args := v.Common().Args
		if !isAs(Callee(v.Common())) || len(args) != 2 {
			return false, false
		}
		target, ok := args[1].(*ssa.MakeInterface)
		if !ok {
			return false, false
		}
		ptr, ok := target.X.Type().Underlying().(*types.Pointer)
		if !ok {
			return false, false
		}
		if t := concreteType(args[0], 0); t != nil && !types.IsInterface(ptr.Elem()) && types.AssignableTo(t, ptr.Elem()) {
			return true, true
		}
	}
	return false, false
}

// concreteType returns the dynamic type of the interface value v when it is known: made from a
// value of that type (MakeInterface), or the single result of a function of the same package
// every return of which makes it so (func InvalidArgument(msg string) error { return
// &ApiError{…} }). Nil otherwise.
func concreteType(v ssa.Value, depth int) types.Type {
	if depth > 4 {
		return nil
	}
	switch v := v.(type) {
	case *ssa.MakeInterface:
		return v.X.Type()
	case *ssa.Call:
		fn := v.Common().StaticCallee()
		if fn == nil || fn.Blocks == nil || v.Parent() == nil || fn.Pkg != v.Parent().Pkg || fn.Signature.Results().Len() != 1 {
			return nil
		}
		var t types.Type
		for _, b := range fn.Blocks {
			ret, ok := b.Instrs[len(b.Instrs)-1].(*ssa.Return)
			if !ok {
				continue
			}
			rt := concreteType(ret.Results[0], depth+1)
			if rt == nil || t != nil && !types.Identical(t, rt) {
				return nil
			}
			t = rt
		}
		return t
	}
	return nil
}
