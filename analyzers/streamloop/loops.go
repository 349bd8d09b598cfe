package streamloop

import (
	"go/token"
	"go/types"

	"golang.org/x/tools/go/ssa"

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
		if exits && !c.waitingExit(iff.Cond) {
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
