package ctxless

import (
	"fmt"
	"go/types"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/ssa"

	"github.com/deadlinelint/deadlinelint/internal/ctxorigin"
	"github.com/deadlinelint/deadlinelint/internal/report"
	"github.com/deadlinelint/deadlinelint/internal/reqctx"
	"github.com/deadlinelint/deadlinelint/internal/scope"
	"github.com/deadlinelint/deadlinelint/internal/typesutil"
)

// A helper of the package a request scope hands its ctx — s.lookup(ctx, id) — that queries
// with db.QueryRow instead of QueryRowContext(ctx) loses the request's deadline one call down;
// the fix is there, with the ctx in hand. Only the ctx a request scope hands down is followed,
// through the helpers of the package it is handed on to: a helper given a ctx only by start-up
// code or a worker is not the request's (a worker's ctx-less call is no lost deadline), and a
// helper of another package is out of reach (what reaches it is known only in its callers'
// packages, which cannot report a line of it). Only calls that do the request's I/O count: a
// database/sql call, an HTTP request, a DNS lookup, a method whose ctx-taking variant the module
// offers. Not a sleep (on real code, a short pause whose next turn fails on the ctx), a dial (a
// connection kept for later requests) or a process (exec.Command, which a helper may start to
// outlive the ctx it is given: CommandContext would kill it); nor what is not the request's
// work (deferred, on the way out of a failure, one-time initialisation: ctxorigin.ForRequest).

// checkGiven returns the finding for call, made in fn — a helper a request scope, sc, hands
// the request's ctx as the parameter fn names — if call does the request's I/O without it
// although a ctx-taking variant exists.
func (c *checker) checkGiven(sc *scope.Scope, fn *ssa.Function, call ssa.CallInstruction) (analysis.Diagnostic, bool) {
	param := ctxorigin.GivenCtx(fn)
	if param == nil {
		return analysis.Diagnostic{}, false
	}
	callee := ctxorigin.Callee(call.Common())
	if callee == nil || !callersIO(callee) || ctxorigin.IsVariantOf(fn, callee) {
		return analysis.Diagnostic{}, false
	}
	if _, ok := call.(*ssa.Go); ok {
		return analysis.Diagnostic{}, false // a goroutine of its own, which may outlive the ctx it was given
	}
	adv := c.adviceFor(callee)
	if adv == nil || adv.inLoops || !ctxorigin.ForRequest(call) || ctxAddedLater(call, callee) {
		return analysis.Diagnostic{}, false
	}
	pos, end := c.callRange(call)
	hasArgs := callee.Signature().Params().Len() > 0
	use := adv.replacement(param.Name(), true, hasArgs)
	d := analysis.Diagnostic{
		Pos: pos, End: end,
		Message: fmt.Sprintf("%s in %s ignores the ctx it is given, the request's from %s; use %s",
			report.FuncName(callee), funcLabel(fn), reqctx.Where(sc), use),
	}
	if adv.edit != nil && fn.Parent() == nil {
		if edits := c.edits(call, callee, adv, param.Name()); edits != nil {
			d.SuggestedFixes = []analysis.SuggestedFix{{Message: "Use " + use, TextEdits: edits}}
		}
	}
	return d, true
}

// funcLabel names fn, or the function declaring the literal fn, for a message.
func funcLabel(fn *ssa.Function) string {
	for fn.Parent() != nil {
		fn = fn.Parent()
	}
	if obj, ok := fn.Object().(*types.Func); ok {
		return report.FuncName(obj)
	}
	return fn.Name()
}

// callersIO reports whether fn is I/O done for the caller, which the ctx it gives should
// bound: not a sleep, a dial or a process (see the comment at the top of the file).
func callersIO(fn *types.Func) bool {
	switch {
	case fn.Pkg() == nil:
		return false
	case fn.Pkg().Path() == "time", fn.Pkg().Path() == "os/exec":
		return false
	case fn.Pkg().Path() == "net" && (fn.Name() == "Dial" || fn.Name() == "DialTimeout"):
		return false
	case typesutil.IsMethod(fn, "net", "Dialer", "Dial"):
		return false
	}
	return true
}
