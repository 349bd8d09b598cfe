package deadlinemath

import (
	"fmt"
	"go/ast"
	"go/constant"
	"go/token"
	"go/types"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/types/typeutil"

	"github.com/deadlinelint/deadlinelint/internal/report"
	"github.com/deadlinelint/deadlinelint/internal/typesutil"
)

// durationParam names a function whose parameter arg is a duration that sets a deadline or a
// timeout.
type durationParam struct {
	pkg, name string
	arg       int
	// atOnce: the function makes a timer that can be reset, for which 1 — the shortest
	// duration — means "fire at once": time.NewTimer(1) starts a heartbeat loop's first turn
	// right away, and Reset gives the period after it. A one-shot wait of 1ns waits for
	// nothing, and its 1 can only be a unit left out.
	atOnce bool
}

var durationParams = []durationParam{
	{pkg: typesutil.ContextPath, name: "WithTimeout", arg: 1},
	{pkg: typesutil.ContextPath, name: "WithTimeoutCause", arg: 1},
	{pkg: "time", name: "After"},
	{pkg: "time", name: "NewTimer", atOnce: true},
	{pkg: "time", name: "AfterFunc", atOnce: true},
	{pkg: typesutil.GRPCPath, name: "WithTimeout"},
	{pkg: typesutil.GRPCPath, name: "ConnectionTimeout"},
}

// httpTypes are the net/http types whose time.Duration fields are timeouts.
var httpTypes = []string{"Client", "Server", "Transport"}

// units finds the bare-number durations of one package.
type units struct {
	pass   *analysis.Pass
	rep    *report.Reporter
	consts map[*types.Const]ast.Expr // this package's constants, with the expression declaring each
}

// checkUnits reports the constants without a time unit given where a deadline or timeout is set.
func checkUnits(pass *analysis.Pass, rep *report.Reporter) {
	u := &units{pass: pass, rep: rep}
	// One walk: building an inspector for it would cost more than the walk.
	for _, f := range pass.Files {
		ast.Inspect(f, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.CallExpr:
				u.call(n)
			case *ast.CompositeLit:
				u.literal(n)
			}
			return true
		})
	}
}

// call checks a call of one of durationParams, and the time.Now().Add(d) given to a deadline.
func (u *units) call(call *ast.CallExpr) {
	fn, _ := typeutil.Callee(u.pass.TypesInfo, call).(*types.Func) // interface methods too: net.Conn's
	if fn == nil {
		return
	}
	for _, p := range durationParams {
		if typesutil.IsFunc(fn, p.pkg, p.name) && p.arg < len(call.Args) {
			if p.atOnce && u.isOne(call.Args[p.arg]) {
				return
			}
			u.check(call.Args[p.arg], fmt.Sprintf("the duration of %s", typesutil.FuncName(fn)))
			return
		}
	}
	if at, ok := deadlineArg(fn); ok && at < len(call.Args) {
		if add, ok := ast.Unparen(call.Args[at]).(*ast.CallExpr); ok && isNowAdd(u.pass.TypesInfo, add) && len(add.Args) == 1 {
			u.check(add.Args[0], fmt.Sprintf("the time.Now().Add of %s", typesutil.FuncName(fn)))
		}
	}
}

// deadlineArg returns the index of the deadline parameter of fn, if it takes one: the time of
// context.WithDeadline or WithDeadlineCause, or of a SetDeadline, SetReadDeadline or
// SetWriteDeadline method.
func deadlineArg(fn *types.Func) (int, bool) {
	switch {
	case typesutil.IsFunc(fn, typesutil.ContextPath, "WithDeadline"), typesutil.IsFunc(fn, typesutil.ContextPath, "WithDeadlineCause"):
		return 1, true
	case isSetDeadline(fn):
		return 0, true
	}
	return 0, false
}

// isSetDeadline reports whether fn is a method SetDeadline, SetReadDeadline or
// SetWriteDeadline taking one time.Time: net.Conn's, os.File's, http.ResponseController's.
func isSetDeadline(fn *types.Func) bool {
	sig := fn.Signature()
	if sig.Recv() == nil || sig.Params().Len() != 1 || !typesutil.IsNamed(sig.Params().At(0).Type(), "time", "Time") {
		return false
	}
	switch fn.Name() {
	case "SetDeadline", "SetReadDeadline", "SetWriteDeadline":
		return true
	}
	return false
}

// isNowAdd reports whether call is time.Now().Add(…).
func isNowAdd(info *types.Info, call *ast.CallExpr) bool {
	sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr)
	if !ok || !typesutil.IsMethod(info.Uses[sel.Sel], "time", "Time", "Add") {
		return false
	}
	now, ok := ast.Unparen(sel.X).(*ast.CallExpr)
	return ok && typesutil.IsFunc(typeutil.StaticCallee(info, now), "time", "Now")
}

// literal checks the time.Duration fields of a net/http Client, Server or Transport literal.
func (u *units) literal(lit *ast.CompositeLit) {
	t := u.pass.TypesInfo.TypeOf(lit)
	if t == nil {
		return
	}
	var typeName string
	for _, name := range httpTypes {
		if typesutil.IsNamed(t, "net/http", name) {
			typeName = name
		}
	}
	if typeName == "" {
		return
	}
	for _, elt := range lit.Elts {
		kv, ok := elt.(*ast.KeyValueExpr)
		if !ok {
			continue
		}
		key, ok := kv.Key.(*ast.Ident)
		if ok && typesutil.IsNamed(u.pass.TypesInfo.TypeOf(kv.Value), "time", "Duration") {
			u.check(kv.Value, fmt.Sprintf("http.%s's %s", typeName, key.Name))
		}
	}
}

// isOne reports whether e is the constant 1.
func (u *units) isOne(e ast.Expr) bool {
	tv, ok := u.pass.TypesInfo.Types[e]
	return ok && tv.Value != nil && constant.Compare(tv.Value, token.EQL, constant.MakeInt64(1))
}

// millisecond is a millisecond in nanoseconds: a timeout shorter than that, written as a bare
// number, can only be a number missing its unit. A longer one (2e9, 30000000) is a count of
// nanoseconds written on purpose.
var millisecond = constant.MakeInt64(1e6)

// check reports e, given as what, if it is a constant without a time unit of more than zero
// nanoseconds and less than a millisecond.
func (u *units) check(e ast.Expr, what string) {
	tv, ok := u.pass.TypesInfo.Types[e]
	if !ok || tv.Value == nil || constant.Sign(tv.Value) <= 0 || constant.Compare(tv.Value, token.GEQ, millisecond) || !u.bare(e, 0) {
		return
	}
	u.rep.Reportf(e.Pos(), e.End(), "%s is %s nanoseconds: a bare number has no unit; multiply it by one, such as time.Millisecond or time.Second",
		what, tv.Value.ExactString())
}

// bare reports whether the constant expression e has no time unit in it: it is made of
// literals and of this package's untyped constants declared so. A typed constant (a
// time.Duration, a unit), a conversion, a call or a constant of another package is a unit, or
// may be: not bare.
func (u *units) bare(e ast.Expr, depth int) bool {
	if depth > 8 {
		return false
	}
	switch e := ast.Unparen(e).(type) {
	case *ast.BasicLit:
		return true
	case *ast.UnaryExpr:
		return u.bare(e.X, depth+1)
	case *ast.BinaryExpr:
		return u.bare(e.X, depth+1) && u.bare(e.Y, depth+1)
	case *ast.Ident:
		c, ok := u.pass.TypesInfo.Uses[e].(*types.Const)
		if !ok || c.Pkg() != u.pass.Pkg {
			return false
		}
		if b, ok := c.Type().(*types.Basic); !ok || b.Info()&types.IsUntyped == 0 {
			return false
		}
		decl := u.declOf(c)
		return decl != nil && u.bare(decl, depth+1)
	}
	return false
}

// declOf returns the expression declaring the package constant c, or nil (an implicit
// repetition in a const block, iota: not known).
func (u *units) declOf(c *types.Const) ast.Expr {
	if u.consts == nil {
		u.consts = make(map[*types.Const]ast.Expr)
		for _, f := range u.pass.Files {
			ast.Inspect(f, func(n ast.Node) bool {
				spec, ok := n.(*ast.ValueSpec)
				if !ok || len(spec.Values) != len(spec.Names) {
					return true
				}
				for i, name := range spec.Names {
					if c, ok := u.pass.TypesInfo.Defs[name].(*types.Const); ok {
						u.consts[c] = spec.Values[i]
					}
				}
				return true
			})
		}
	}
	return u.consts[c]
}
