package ctxless

import (
	"go/token"
	"go/types"

	"golang.org/x/tools/go/ssa"

	"github.com/deadlinelint/deadlinelint/internal/ctxorigin"
	"github.com/deadlinelint/deadlinelint/internal/typesutil"
)

// inUncheckedLoop reports whether instr runs in a loop of its function that can turn without
// checking a ctx: its block can be reached again from itself through blocks none of which
// checks (checks). Such a loop keeps going, and sleeping, after the request is cancelled; one
// whose every turn checks stops at its next turn. The body of a range-over-func loop is a
// function the iterator calls again: it is unchecked when none of its blocks checks.
func (c *checker) inUncheckedLoop(instr ssa.Instruction) bool {
	b := instr.Block()
	if b == nil {
		return false
	}
	if fn := instr.Parent(); fn.Synthetic == "range-over-func yield" {
		for _, lb := range fn.Blocks {
			if c.checks(lb, nil) {
				return false
			}
		}
		return true
	}
	if c.checks(b, b) {
		return false
	}
	return ctxorigin.OnCycle(b, func(x *ssa.BasicBlock) bool { return !c.checks(x, b) })
}

// checks reports whether block b, on a loop through the block loop (nil: any), asks the
// request whether it is still there: it calls Err or Done on a context.Context (in a select, a
// receive, an if), or it branches on the error of a call given the request's ctx, or its
// stream, and the error's branch leaves the loop (if _, err := s.apps.Get(ctx, name); err !=
// nil { return err }). Once the request is cancelled such a call fails at once, and the loop
// ends at that turn. A callee that never looks at its ctx (a stub, an in-memory double) fails
// for no cancellation: its call is no check.
func (c *checker) checks(b, loop *ssa.BasicBlock) bool {
	for _, instr := range b.Instrs {
		if call, ok := instr.(*ssa.Call); ok && ctxorigin.AsksDone(call.Common()) != nil {
			return true
		}
	}
	if len(b.Instrs) == 0 {
		return false
	}
	iff, ok := b.Instrs[len(b.Instrs)-1].(*ssa.If)
	if !ok {
		return false
	}
	call, failed := erroredCall(iff)
	if call == nil || !c.givenRequest(call.Common()) {
		return false
	}
	return loop != nil && !reaches(failed, loop)
}

// erroredCall returns, for a branch on err != nil (or err == nil) where err is the error a call
// returned (its only result or its last one), that call and the successor taken when it failed.
func erroredCall(iff *ssa.If) (*ssa.Call, *ssa.BasicBlock) {
	op, ok := iff.Cond.(*ssa.BinOp)
	if !ok || op.Op != token.EQL && op.Op != token.NEQ {
		return nil, nil
	}
	errv, other := op.X, op.Y
	if k, isConst := errv.(*ssa.Const); isConst && k.IsNil() {
		errv, other = other, errv
	}
	if k, isConst := other.(*ssa.Const); !isConst || !k.IsNil() || !typesutil.IsError(errv.Type()) {
		return nil, nil
	}
	var call *ssa.Call
	switch v := errv.(type) {
	case *ssa.Call:
		call = v
	case *ssa.Extract:
		if c, isCall := v.Tuple.(*ssa.Call); isCall && v.Index == c.Type().(*types.Tuple).Len()-1 {
			call = c
		}
	}
	if call == nil {
		return nil, nil
	}
	failed := iff.Block().Succs[0]
	if op.Op == token.EQL {
		failed = iff.Block().Succs[1]
	}
	return call, failed
}

// givenRequest reports whether the call is given the request's ctx (or a ctx derived from it)
// or the handler's stream parameter, and its callee may work with it: not one that ignores its
// ctx.
func (c *checker) givenRequest(common *ssa.CallCommon) bool {
	args := common.Args
	if common.IsInvoke() {
		args = append([]ssa.Value{common.Value}, args...)
	}
	for _, a := range args {
		if typesutil.IsContext(a.Type()) && c.fromRequest(a) && !c.res.CallIgnoresCtx(common) {
			return true
		}
		if _, isParam := a.(*ssa.Parameter); isParam && isStream(a.Type()) {
			return true
		}
	}
	return false
}

// fromRequest reports whether every way the ctx v is computed comes from the request's ctx.
func (c *checker) fromRequest(v ssa.Value) bool {
	origins := c.res.SSA().Origins.Of(v)
	for _, o := range origins {
		if o.Kind != ctxorigin.Request {
			return false
		}
	}
	return len(origins) > 0
}

// isStream reports whether t is a gRPC stream: it has SendMsg and a Context method returning a
// context.Context (a handler's server stream fails to send once its client has gone).
func isStream(t types.Type) bool {
	ms := types.NewMethodSet(t)
	var ctx, send bool
	for i := 0; i < ms.Len(); i++ {
		sig, ok := ms.At(i).Type().(*types.Signature)
		if !ok {
			continue
		}
		switch ms.At(i).Obj().Name() {
		case "Context":
			ctx = sig.Params().Len() == 0 && sig.Results().Len() == 1 && typesutil.IsContext(sig.Results().At(0).Type())
		case "SendMsg":
			send = true
		}
	}
	return ctx && send
}

// reaches reports whether block to can be reached from block from (from itself included).
func reaches(from, to *ssa.BasicBlock) bool {
	seen := map[*ssa.BasicBlock]bool{from: true}
	queue := []*ssa.BasicBlock{from}
	for len(queue) > 0 {
		x := queue[0]
		queue = queue[1:]
		if x == to {
			return true
		}
		for _, s := range x.Succs {
			if !seen[s] {
				seen[s] = true
				queue = append(queue, s)
			}
		}
	}
	return false
}
