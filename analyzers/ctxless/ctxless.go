package ctxless

import (
	_ "embed"
	"fmt"
	"go/ast"
	"go/token"
	"go/types"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/ssa"

	"github.com/deadlinelint/deadlinelint/internal/ctxorigin"
	"github.com/deadlinelint/deadlinelint/internal/ctxssa"
	"github.com/deadlinelint/deadlinelint/internal/report"
	"github.com/deadlinelint/deadlinelint/internal/reqctx"
	"github.com/deadlinelint/deadlinelint/internal/ruledoc"
	"github.com/deadlinelint/deadlinelint/internal/scope"
	"github.com/deadlinelint/deadlinelint/internal/typesutil"
)

const name = "ctxless"

//go:embed doc.go
var doc string

// Analyzer reports calls in request scopes that cannot carry the request's deadline although
// a ctx-taking variant exists.
var Analyzer = &analysis.Analyzer{
	Name:     name,
	Doc:      ruledoc.MustExtract(doc, name),
	URL:      ruledoc.URL(name),
	Requires: []*analysis.Analyzer{ctxssa.Analyzer},
	Run:      run,
}

func run(pass *analysis.Pass) (any, error) {
	res := pass.ResultOf[ctxssa.Analyzer].(*ctxssa.Result)
	rep := report.New(pass, res, name)
	defer rep.Finish()
	if res.External || !res.MayHaveScopes() {
		return nil, nil
	}
	info := res.SSA()
	c := checker{pass: pass, res: res, advice: make(map[*types.Func]*advice)}
	helpers := res.HandedRequest()
	for _, fn := range info.Funcs {
		sc := info.Scopes.Of(fn)
		check := c.check
		if sc == nil {
			hsc, ok := helpers[fn]
			if !ok || info.Scopes.TestSupport(fn) {
				continue
			}
			sc = hsc
			check = func(sc *scope.Scope, call ssa.CallInstruction) (analysis.Diagnostic, bool) {
				return c.checkGiven(sc, fn, call)
			}
		}
		for _, b := range fn.Blocks {
			for _, instr := range b.Instrs {
				if call, ok := instr.(ssa.CallInstruction); ok {
					if d, ok := check(sc, call); ok {
						rep.Report(d)
					}
				}
			}
		}
	}
	return nil, nil
}

// checker holds what one pass needs to judge calls, and memoises the advice per callee.
type checker struct {
	pass   *analysis.Pass
	res    *ctxssa.Result
	advice map[*types.Func]*advice // nil: the callee is fine
}

// check returns the finding for call, made in scope sc, if its callee cannot carry the
// request's deadline although a ctx-taking variant exists.
func (c *checker) check(sc *scope.Scope, call ssa.CallInstruction) (analysis.Diagnostic, bool) {
	callee := ctxorigin.Callee(call.Common())
	if callee == nil {
		return analysis.Diagnostic{}, false
	}
	adv := c.adviceFor(callee)
	if adv == nil || !ctxorigin.ForRequest(call) || ctxAddedLater(call, callee) || adv.inLoops && !inUncheckedLoop(call) {
		return analysis.Diagnostic{}, false
	}
	return c.diagnostic(sc, call, callee, adv), true
}

// adviceFor returns (once per callee) the advice for calls to fn, or nil when fn is fine.
func (c *checker) adviceFor(fn *types.Func) *advice {
	if adv, ok := c.advice[fn]; ok {
		return adv
	}
	adv := lookupKnown(fn)
	if adv == nil {
		if twin, exact := c.res.Twin(fn); twin != nil {
			a := twinOf(twin.Name(), "", twin.Name(), "")
			if !exact {
				a.edit = nil // its callback takes a ctx too: no mechanical rewrite
			}
			adv = &a
		}
	}
	c.advice[fn] = adv
	return adv
}

// ctxAddedLater reports whether call is http.NewRequest whose request is given a ctx with
// (*http.Request).WithContext or Clone before use: the common pre-Go 1.13 idiom.
func ctxAddedLater(call ssa.CallInstruction, callee *types.Func) bool {
	v := call.Value()
	if v == nil || !typesutil.IsFunc(callee, "net/http", "NewRequest") {
		return false
	}
	for _, ref := range *v.Referrers() {
		req, ok := ref.(*ssa.Extract)
		if !ok || req.Index != 0 {
			continue
		}
		for _, use := range *req.Referrers() {
			u, ok := use.(*ssa.Call)
			if !ok {
				continue
			}
			if fn := ctxorigin.Callee(u.Common()); fn != nil && setsRequestCtx(fn) {
				return true
			}
		}
	}
	return false
}

// setsRequestCtx reports whether fn is (*http.Request).WithContext or Clone, which return a
// copy of the request carrying the given ctx.
func setsRequestCtx(fn *types.Func) bool {
	return typesutil.IsMethod(fn, "net/http", "Request", "WithContext") ||
		typesutil.IsMethod(fn, "net/http", "Request", "Clone")
}

// diagnostic builds the finding for call to callee in scope sc.
func (c *checker) diagnostic(sc *scope.Scope, call ssa.CallInstruction, callee *types.Func, adv *advice) analysis.Diagnostic {
	pos, end := c.callRange(call)
	spelled, expr := reqctx.Expr(c.pass, sc, pos)
	if _, ok := call.(*ssa.Go); ok {
		expr = "" // the goroutine may outlive the handler: the request ctx would cut it short
	}
	lost := adv.lost
	if lost == "" {
		lost = "cannot be cancelled with the request"
	}
	hasArgs := callee.Signature().Params().Len() > 0
	use := adv.replacement(spelled, expr != "", hasArgs)
	d := analysis.Diagnostic{
		Pos: pos, End: end,
		Message: fmt.Sprintf("%s in %s %s; use %s", report.FuncName(callee), reqctx.Where(sc), lost, use),
	}
	if expr != "" && adv.edit != nil {
		if edits := c.edits(call, callee, adv, expr); edits != nil {
			d.SuggestedFixes = []analysis.SuggestedFix{{
				Message:   "Use " + use,
				TextEdits: edits,
			}}
		}
	}
	return d
}

// callRange returns the range of call from the name of its callee to its closing
// parenthesis, so that chained calls (tx.Stmt(s).Exec()) are told apart.
func (c *checker) callRange(call ssa.CallInstruction) (token.Pos, token.Pos) {
	pos, end := c.res.CallRange(call)
	if expr := c.res.CallExpr(call.Common().Pos()); expr != nil {
		if sel, ok := ast.Unparen(expr.Fun).(*ast.SelectorExpr); ok {
			pos = sel.Sel.Pos()
		}
	}
	return pos, end
}
