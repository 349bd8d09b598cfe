package ctxless

import (
	"go/ast"
	"go/token"
	"go/types"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/ssa"
)

// edits returns the text edits that rewrite call as adv.edit says, passing ctx, or nil when
// the call is not written in a shape the rewrite is sure to keep correct: the callee must be
// spelled as a selector that names it directly (pkg.F or x.M), and for a method the new
// name must select the twin on the same operand.
func (c *checker) edits(call ssa.CallInstruction, callee *types.Func, adv *advice, ctx string) []analysis.TextEdit {
	expr := c.res.CallExpr(call.Common().Pos())
	if expr == nil {
		return nil
	}
	sel, ok := expr.Fun.(*ast.SelectorExpr)
	if !ok || !c.selects(sel, callee) {
		return nil
	}
	if recv := callee.Signature().Recv(); recv != nil && !c.selectsTwin(sel, recv.Type(), callee.Pkg(), adv.edit.sel) {
		return nil
	}
	args := ctx
	if adv.edit.extra != "" {
		args += ", " + adv.edit.extra
	}
	switch {
	case len(expr.Args) == 0:
	case c.line(expr.Args[0].Pos()) != c.line(expr.Lparen):
		args += "," // the arguments start on the next line
	default:
		args += ", "
	}
	var edits []analysis.TextEdit
	if adv.edit.prefix != "" {
		edits = append(edits, analysis.TextEdit{Pos: sel.Pos(), End: sel.Pos(), NewText: []byte(adv.edit.prefix)})
	}
	return append(edits,
		analysis.TextEdit{Pos: sel.Sel.Pos(), End: sel.Sel.End(), NewText: []byte(adv.edit.sel)},
		analysis.TextEdit{Pos: expr.Lparen + 1, End: expr.Lparen + 1, NewText: []byte(args)},
	)
}

// line returns the line of pos.
func (c *checker) line(pos token.Pos) int { return c.pass.Fset.Position(pos).Line }

// selects reports whether sel denotes callee: a qualified identifier pkg.F, or a method
// selection x.M (generic instantiations compared by origin).
func (c *checker) selects(sel *ast.SelectorExpr, callee *types.Func) bool {
	if s, ok := c.pass.TypesInfo.Selections[sel]; ok {
		fn, ok := s.Obj().(*types.Func)
		return ok && s.Kind() == types.MethodVal && fn.Origin() == callee
	}
	id, ok := sel.X.(*ast.Ident)
	if !ok {
		return false
	}
	if _, ok := c.pass.TypesInfo.Uses[id].(*types.PkgName); !ok {
		return false
	}
	return c.pass.TypesInfo.Uses[sel.Sel] == types.Object(callee)
}

// selectsTwin reports whether x.twin, for the operand x of sel, is a call of the method twin
// of recv (seen from pkg) that compiles: twin is in the method set of x's type, or x is an
// addressable variable whose pointer's method set has it.
func (c *checker) selectsTwin(sel *ast.SelectorExpr, recv types.Type, pkg *types.Package, twin string) bool {
	want, ok := lookupMethod(recv, true, pkg, twin)
	t := c.pass.TypesInfo.TypeOf(sel.X)
	if !ok || t == nil {
		return false
	}
	if got, ok := lookupMethod(t, false, pkg, twin); ok {
		return got.Origin() == want
	}
	if !c.addressable(sel.X) {
		return false
	}
	got, ok := lookupMethod(t, true, pkg, twin)
	return ok && got.Origin() == want
}

// addressable reports whether e denotes an addressable operand (a variable, a pointer
// indirection, a field of one, or a slice element), so that &e's methods can be called on it.
func (c *checker) addressable(e ast.Expr) bool {
	switch e := ast.Unparen(e).(type) {
	case *ast.Ident:
		_, ok := c.pass.TypesInfo.Uses[e].(*types.Var)
		return ok
	case *ast.StarExpr:
		return true
	case *ast.SelectorExpr:
		s, ok := c.pass.TypesInfo.Selections[e]
		return ok && s.Kind() == types.FieldVal && (s.Indirect() || c.addressable(e.X))
	case *ast.IndexExpr:
		switch c.pass.TypesInfo.TypeOf(e.X).Underlying().(type) {
		case *types.Slice:
			return true
		case *types.Array:
			return c.addressable(e.X)
		}
	}
	return false
}

// lookupMethod finds the method name of t, possibly promoted, seen from pkg.
func lookupMethod(t types.Type, addressable bool, pkg *types.Package, name string) (*types.Func, bool) {
	obj, _, _ := types.LookupFieldOrMethod(t, addressable, pkg, name)
	fn, ok := obj.(*types.Func)
	return fn, ok
}
