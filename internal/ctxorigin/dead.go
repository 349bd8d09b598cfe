package ctxorigin

import (
	"go/constant"

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
	live := liveBlocks(parent)
	for _, ref := range *fn.Referrers() {
		if b := ref.Block(); b == nil || live[b] {
			return false
		}
	}
	return true
}

// LiveBlocks returns the blocks of fn that a path from its entry reaches, a branch on a
// constant condition taking only the way its value goes: code under `if false { … }` or a
// false constant is not among them.
func LiveBlocks(fn *ssa.Function) map[*ssa.BasicBlock]bool { return liveBlocks(fn) }

// liveBlocks returns the blocks of fn that a path from its entry reaches, a branch on a
// constant condition taking only the way its value goes.
func liveBlocks(fn *ssa.Function) map[*ssa.BasicBlock]bool {
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
			if c, ok := cond.Cond.(*ssa.Const); ok && c.Value != nil && c.Value.Kind() == constant.Bool {
				if constant.BoolVal(c.Value) {
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
