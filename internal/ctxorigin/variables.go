package ctxorigin

import "golang.org/x/tools/go/ssa"

// Variables of a function that function literals capture live in an Alloc the literals share
// (a FreeVar inside them). These helpers answer, for any rule, what such a variable holds.

// OnlyHolds reports whether the local variable alloc is assigned only in its own function,
// at least once, and only values that satisfy holds: a variable that is never anything else.
func OnlyHolds(alloc *ssa.Alloc, holds func(ssa.Value) bool) bool {
	if !OnlyLocalStores(alloc) {
		return false
	}
	stored := false
	for _, ref := range *alloc.Referrers() {
		if st, ok := ref.(*ssa.Store); ok {
			if !holds(st.Val) {
				return false
			}
			stored = true
		}
	}
	return stored
}

// Assigned returns the values the load at of the local variable alloc may read: the stores of
// alloc's function that reach at, and the stores of the function literals that capture alloc
// and are created on a path to at (wg.Go(func() { n, err = count(ctx) }) before wg.Wait()).
// ok is false when its address goes anywhere else: what it holds is not known.
func Assigned(alloc *ssa.Alloc, at ssa.Instruction) (vals []ssa.Value, ok bool) {
	own, _ := reachingStores(alloc, at)
	for _, st := range own {
		vals = append(vals, st.Val)
	}
	for _, ref := range *alloc.Referrers() {
		switch ref := ref.(type) {
		case *ssa.Store:
			if ref.Addr != alloc {
				return nil, false
			}
		case *ssa.MakeClosure:
			if !mayPrecede(ref, at) {
				continue
			}
			fn := ref.Fn.(*ssa.Function)
			for i, b := range ref.Bindings {
				if b != alloc || i >= len(fn.FreeVars) {
					continue
				}
				for _, r := range *fn.FreeVars[i].Referrers() {
					switch r := r.(type) {
					case *ssa.Store:
						if r.Addr != fn.FreeVars[i] {
							return nil, false
						}
						vals = append(vals, r.Val)
					case *ssa.UnOp, *ssa.DebugRef:
					default:
						return nil, false // handed on further: not followed
					}
				}
			}
		case *ssa.UnOp, *ssa.DebugRef:
		default:
			return nil, false
		}
	}
	return vals, true
}

// mayPrecede reports whether instruction from can run before instruction to, both of one
// function: earlier in the same block, or in a block from which to's block can be reached.
func mayPrecede(from, to ssa.Instruction) bool {
	fb, tb := from.Block(), to.Block()
	return fb == tb && indexOf(from) < indexOf(to) || Reaches(fb, tb)
}

// Reaches reports whether block to can run after block from: it is reached by a way on from
// from's successors (from itself, only round a loop).
func Reaches(from, to *ssa.BasicBlock) bool { return ReachesAvoiding(from, to, nil) }

// ReachesAvoiding is Reaches taking no edge from a block to a successor for which skip (when not
// nil) reports true.
func ReachesAvoiding(from, to *ssa.BasicBlock, skip func(b, succ *ssa.BasicBlock) bool) bool {
	seen := map[*ssa.BasicBlock]bool{}
	type edge struct{ b, succ *ssa.BasicBlock }
	var stack []edge
	push := func(b *ssa.BasicBlock) {
		for _, s := range b.Succs {
			stack = append(stack, edge{b, s})
		}
	}
	push(from)
	for len(stack) > 0 {
		e := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if skip != nil && skip(e.b, e.succ) {
			continue
		}
		if e.succ == to {
			return true
		}
		if !seen[e.succ] {
			seen[e.succ] = true
			push(e.succ)
		}
	}
	return false
}
