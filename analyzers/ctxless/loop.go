package ctxless

import (
	"golang.org/x/tools/go/ssa"

	"github.com/deadlinelint/deadlinelint/internal/ctxorigin"
)

// inUncheckedLoop reports whether instr runs in a loop of its function that can turn without
// checking a ctx: its block can be reached again from itself through blocks none of which calls
// Err or Done on a context.Context (in a select, a receive, an if) — or it is the body of a
// range-over-func loop that checks none. Such a loop keeps going, and sleeping, after the
// request is cancelled; one whose every turn checks stops at its next turn.
func inUncheckedLoop(instr ssa.Instruction) bool {
	b := instr.Block()
	if b == nil {
		return false
	}
	if fn := instr.Parent(); fn.Synthetic == "range-over-func yield" {
		// The body of a range-over-func loop: the iterator calls it again.
		for _, lb := range fn.Blocks {
			if checksCtx(lb) {
				return false
			}
		}
		return true
	}
	if checksCtx(b) {
		return false
	}
	return ctxorigin.OnCycle(b, func(x *ssa.BasicBlock) bool { return !checksCtx(x) })
}

// checksCtx reports whether block b asks a ctx whether it is done: ctx.Err() or ctx.Done().
func checksCtx(b *ssa.BasicBlock) bool {
	for _, instr := range b.Instrs {
		if call, ok := instr.(*ssa.Call); ok && ctxorigin.AsksDone(call.Common()) != nil {
			return true
		}
	}
	return false
}
