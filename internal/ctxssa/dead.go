package ctxssa

import (
	"go/ast"
	"go/constant"
	"go/token"
	"sort"
)

// A block under a condition that is constant false never runs: `if false { … }`, a feature
// turned off by a constant (`const enabled = false; if enabled { … }`), `if debug && x { … }`, or
// the else of a constant true. Nothing in it loses a deadline, so no rule reports there. This is
// the reporter's net, by position, for any rule's finding; where an SSA instruction is at hand
// (the calls of a helper that ctxbackground follows) the answer is ctxorigin.LiveBlocks.

// span is a half-open range of positions [pos, end).
type span struct{ pos, end token.Pos }

// Dead reports whether pos lies in a block that a constant condition keeps from running.
func (r *Result) Dead(pos token.Pos) bool {
	r.deadOnce.Do(r.findDead)
	i := sort.Search(len(r.dead), func(i int) bool { return r.dead[i].end > pos })
	return i < len(r.dead) && r.dead[i].pos <= pos
}

// findDead collects the dead blocks of the package's files, in order, none inside another.
func (r *Result) findDead() {
	for _, f := range r.pass.Files {
		ast.Inspect(f, func(n ast.Node) bool {
			s, ok := n.(*ast.IfStmt)
			if !ok {
				return true
			}
			switch v, known := r.constCond(s.Cond); {
			case known && !v:
				r.dead = append(r.dead, span{s.Body.Pos(), s.Body.End()})
			case known && s.Else != nil:
				r.dead = append(r.dead, span{s.Else.Pos(), s.Else.End()})
			}
			return true
		})
	}
	sort.Slice(r.dead, func(i, j int) bool { return r.dead[i].pos < r.dead[j].pos })
	out := r.dead[:0]
	for _, s := range r.dead {
		if len(out) > 0 && s.pos < out[len(out)-1].end {
			continue // inside the one before: Dead's search needs disjoint spans
		}
		out = append(out, s)
	}
	r.dead = out
}

// constCond returns the value of a condition known without running it: a constant, or a
// conjunction with a constant false operand.
func (r *Result) constCond(e ast.Expr) (value, known bool) {
	if tv, ok := r.pass.TypesInfo.Types[e]; ok && tv.Value != nil && tv.Value.Kind() == constant.Bool {
		return constant.BoolVal(tv.Value), true
	}
	switch e := e.(type) {
	case *ast.ParenExpr:
		return r.constCond(e.X)
	case *ast.BinaryExpr:
		if e.Op == token.LAND {
			if v, ok := r.constCond(e.X); ok && !v {
				return false, true
			}
			if v, ok := r.constCond(e.Y); ok && !v {
				return false, true
			}
		}
	}
	return false, false
}
