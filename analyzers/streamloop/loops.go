package streamloop

import (
	"go/token"
	"go/types"

	"golang.org/x/tools/go/ssa"

	"github.com/deadlinelint/deadlinelint/internal/ctxorigin"
	"github.com/deadlinelint/deadlinelint/internal/typesutil"
)

// loop is a natural loop of a function: its header and every block of its body.
type loop struct {
	header *ssa.BasicBlock
	blocks []*ssa.BasicBlock
	in     map[*ssa.BasicBlock]bool
}

// loops returns the natural loops of fn, one per header: the blocks that reach a back edge
// (an edge to a block that dominates its source) without passing through the header.
func loops(fn *ssa.Function) []*loop {
	byHeader := make(map[*ssa.BasicBlock]*loop)
	var out []*loop
	for _, b := range fn.Blocks {
		for _, s := range b.Succs {
			if !s.Dominates(b) {
				continue
			}
			l := byHeader[s]
			if l == nil {
				l = &loop{header: s, in: map[*ssa.BasicBlock]bool{s: true}}
				l.blocks = append(l.blocks, s)
				byHeader[s] = l
				out = append(out, l)
			}
			stack := []*ssa.BasicBlock{b}
			for len(stack) > 0 {
				x := stack[len(stack)-1]
				stack = stack[:len(stack)-1]
				if l.in[x] {
					continue
				}
				l.in[x] = true
				l.blocks = append(l.blocks, x)
				stack = append(stack, x.Preds...)
			}
		}
	}
	return out
}

// endsOnItsOwn reports whether the loop can end without anything from outside: one of its
// exits is a count or a walk over a collection (a comparison with a value the loop steps, the
// ok of a map or string range), or a condition the analysis does not know. Exits that only a
// channel closing, a select case or an error takes do not end it on its own.
func (c *checker) endsOnItsOwn(l *loop) bool {
	for _, b := range l.blocks {
		iff, ok := b.Instrs[len(b.Instrs)-1].(*ssa.If)
		if !ok {
			continue
		}
		exits := !l.in[b.Succs[0]] || !l.in[b.Succs[1]]
		if exits && !c.waitingExit(iff.Cond) && !c.awaited(iff.Cond, l) {
			return true
		}
	}
	return false
}

// waitingExit reports whether cond, which decides an exit of a loop, is one that only a wait
// takes: the ok of a channel receive (range over a channel: it ends when the channel closes),
// a select's chosen case, or an error compared with nil.
func (c *checker) waitingExit(cond ssa.Value) bool {
	switch v := cond.(type) {
	case *ssa.UnOp:
		if v.Op == token.NOT {
			return c.waitingExit(v.X)
		}
	case *ssa.Extract:
		if recv, ok := v.Tuple.(*ssa.UnOp); ok && recv.Op == token.ARROW {
			// Range over a channel, v, ok := <-ch: it ends when the channel closes, which one
			// the request's ctx is given, or one made here, may well do with the request.
			return c.outlives(recv.X, 0)
		}
	case *ssa.BinOp:
		if v.Op != token.EQL && v.Op != token.NEQ {
			return false
		}
		for _, x := range []ssa.Value{v.X, v.Y} {
			if ext, ok := x.(*ssa.Extract); ok {
				if _, sel := ext.Tuple.(*ssa.Select); sel && ext.Index == 0 {
					return true // which case of a select
				}
			}
			if typesutil.IsError(x.Type()) || isInterface(x.Type()) && typesutil.IsError(otherOf(v, x).Type()) {
				return true // err != nil
			}
		}
	}
	return false
}

// awaited reports whether cond, which decides an exit of loop l, can change only when
// something arrives from outside the request: it is computed from values the loop receives
// from channels that outlive the request, or from the state of a long-lived value read by a
// call given no ctx of the request (the server's "a slot is free", "nothing pending"), with
// constants and values fixed before the loop. A count, a clock, a call the analysis cannot
// place, or a variable it cannot follow lets the loop end on its own.
func (c *checker) awaited(cond ssa.Value, l *loop) bool {
	ok, found := c.fromOutside(cond, l, 0, map[ssa.Value]bool{})
	return ok && found
}

// fromOutside walks the operands of v: ok reports that every one is a constant, a value fixed
// before the loop, or one that arrives from outside; found that at least one arrives.
func (c *checker) fromOutside(v ssa.Value, l *loop, depth int, seen map[ssa.Value]bool) (ok, found bool) {
	if depth > 8 {
		return false, false
	}
	if seen[v] {
		return true, false
	}
	seen[v] = true
	if alloc, isAlloc := v.(*ssa.Alloc); isAlloc {
		return c.stored(alloc, l, depth, seen)
	}
	if instr, isInstr := v.(ssa.Instruction); isInstr && !l.in[instr.Block()] {
		return true, false // computed before the loop
	}
	all := func(xs ...ssa.Value) (bool, bool) {
		any := false
		for _, x := range xs {
			ok, found := c.fromOutside(x, l, depth+1, seen)
			if !ok {
				return false, false
			}
			any = any || found
		}
		return true, any
	}
	switch v := v.(type) {
	case *ssa.Const, *ssa.Parameter, *ssa.FreeVar, *ssa.Global:
		return true, false
	case *ssa.Phi:
		return all(v.Edges...)
	case *ssa.BinOp:
		return all(v.X, v.Y)
	case *ssa.Convert:
		return all(v.X)
	case *ssa.ChangeType:
		return all(v.X)
	case *ssa.Field:
		return all(v.X)
	case *ssa.UnOp:
		switch v.Op {
		case token.ARROW:
			o := c.outlives(v.X, 0)
			return o, o
		case token.MUL:
			switch addr := v.X.(type) {
			case *ssa.FieldAddr:
				return all(addr.X)
			case *ssa.Alloc:
				if !storedIn(addr, l) {
					return true, false
				}
				return c.stored(addr, l, depth, seen)
			case *ssa.FreeVar:
				// A variable the loop does not assign: fixed while it waits.
				return !storedIn(addr, l), false
			}
			return false, false
		default:
			return all(v.X)
		}
	case *ssa.Extract:
		if recv, isRecv := v.Tuple.(*ssa.UnOp); isRecv && recv.Op == token.ARROW && v.Index == 0 {
			o := c.outlives(recv.X, 0)
			return o, o
		}
		if sel, isSel := v.Tuple.(*ssa.Select); isSel && v.Index >= 2 {
			// The value a select's receive case got: from its channel, the i-th receive.
			if ch := selectRecv(sel, v.Index-2); ch != nil {
				o := c.outlives(ch, 0)
				return o, o
			}
		}
	case *ssa.Call:
		if c.readsLongLived(v.Common()) {
			ok, _ := all(v.Common().Args...)
			return ok, ok
		}
		if leafComputation(v.Common()) {
			// A function of the package that only computes from its arguments
			// (u.finished()): its result changes only when they do.
			return all(v.Common().Args...)
		}
	}
	return false, false
}

// selectRecv returns the channel of the i-th receive case of sel, or nil.
func selectRecv(sel *ssa.Select, i int) ssa.Value {
	for _, st := range sel.States {
		if st.Dir != types.RecvOnly {
			continue
		}
		if i == 0 {
			return st.Chan
		}
		i--
	}
	return nil
}

// leafComputation reports whether the call is a static call of a function of the package that
// calls nothing and takes no ctx: what it returns is computed from its arguments (and the
// memory they point to) alone, not from a clock or a counter.
func leafComputation(common *ssa.CallCommon) bool {
	fn := common.StaticCallee()
	if fn == nil || fn.Blocks == nil || len(fn.FreeVars) > 0 {
		return false
	}
	for _, p := range fn.Params {
		if typesutil.IsContext(p.Type()) {
			return false
		}
	}
	for _, b := range fn.Blocks {
		for _, instr := range b.Instrs {
			switch instr := instr.(type) {
			case ssa.CallInstruction, *ssa.Select:
				return false // a call, a wait
			case *ssa.UnOp:
				if instr.Op == token.ARROW || instr.Op == token.MUL && readsGlobal(instr.X) {
					return false // a receive, a package variable
				}
			}
		}
	}
	return true
}

// readsGlobal reports whether addr is a package variable or a part of one.
func readsGlobal(addr ssa.Value) bool {
	for {
		switch a := addr.(type) {
		case *ssa.Global:
			return true
		case *ssa.FieldAddr:
			addr = a.X
		case *ssa.IndexAddr:
			addr = a.X
		default:
			return false
		}
	}
}

// stored walks what is stored to the local variable alloc (a variable whose fields the loop
// reads by address), when it is only stored to as a whole and read.
func (c *checker) stored(alloc *ssa.Alloc, l *loop, depth int, seen map[ssa.Value]bool) (ok, found bool) {
	for _, ref := range *alloc.Referrers() {
		switch ref := ref.(type) {
		case *ssa.Store:
			if ref.Addr != alloc {
				return false, false
			}
			ok, f := c.fromOutside(ref.Val, l, depth+1, seen)
			if !ok {
				return false, false
			}
			found = found || f
		case *ssa.FieldAddr:
			if !fixedIn(ref, l) {
				return false, false
			}
		case *ssa.UnOp, *ssa.DebugRef:
		default:
			return false, false // its address goes elsewhere
		}
	}
	return true, found
}

// fixedIn reports whether the field at address fa keeps its value while loop l runs: it is
// read through, and assigned only outside the loop (b.id = next() before waiting for b.id).
func fixedIn(fa *ssa.FieldAddr, l *loop) bool {
	for _, ref := range *fa.Referrers() {
		switch ref := ref.(type) {
		case *ssa.UnOp:
			if ref.Op != token.MUL {
				return false
			}
		case *ssa.Store:
			if ref.Addr != fa || l.in[ref.Block()] {
				return false
			}
		case *ssa.DebugRef:
		default:
			return false
		}
	}
	return true
}

// storedIn reports whether the loop l assigns the variable addr.
func storedIn(addr ssa.Value, l *loop) bool {
	for _, ref := range *addr.Referrers() {
		if st, ok := ref.(*ssa.Store); ok && st.Addr == addr && l.in[st.Block()] {
			return true
		}
		if mc, ok := ref.(*ssa.MakeClosure); ok && mayRunIn(mc, l) {
			return true // a literal may assign it, when the loop calls it
		}
	}
	return false
}

// mayRunIn reports whether the literal mc makes may run while loop l does: it is called in the
// loop, or goes anywhere but to calls of it outside the loop (stored, handed on, started).
func mayRunIn(mc *ssa.MakeClosure, l *loop) bool {
	for _, ref := range *mc.Referrers() {
		switch ref := ref.(type) {
		case *ssa.DebugRef:
		case *ssa.Call:
			if ref.Call.Value != mc || l.in[ref.Block()] {
				return true
			}
		default:
			return true
		}
	}
	return false
}

// readsLongLived reports whether the call is a method of a long-lived value (the server, a
// package variable, or what a call not given the request's ctx returned), given no ctx at all
// and not in package time: it reads state that changes only when others act.
func (c *checker) readsLongLived(common *ssa.CallCommon) bool {
	for _, a := range common.Args {
		if typesutil.IsContext(a.Type()) {
			return false
		}
	}
	if common.IsInvoke() {
		return c.longLived(common.Value, 1)
	}
	fn := ctxorigin.Callee(common)
	if fn == nil || fn.Signature().Recv() == nil || len(common.Args) == 0 || fn.Pkg() == nil || fn.Pkg().Path() == "time" {
		return false
	}
	return c.longLived(common.Args[0], 1)
}

func otherOf(b *ssa.BinOp, x ssa.Value) ssa.Value {
	if b.X == x {
		return b.Y
	}
	return b.X
}

func isInterface(t types.Type) bool {
	_, ok := t.Underlying().(*types.Interface)
	return ok
}
