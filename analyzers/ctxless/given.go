package ctxless

import (
	"fmt"
	"go/types"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/ssa"

	"github.com/deadlinelint/deadlinelint/internal/ctxorigin"
	"github.com/deadlinelint/deadlinelint/internal/ctxssa"
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
// work (deferred, on the way out of a failure, one-time initialisation: forRequest).

// handedRequest returns the functions of the package, not request scopes, that a request scope
// hands the request's ctx (or one derived from it) as their one ctx parameter, directly or
// through such helpers handing it on; for each, the scope that first does.
func handedRequest(info *ctxssa.Info) map[*ssa.Function]*scope.Scope {
	out := make(map[*ssa.Function]*scope.Scope)
	var queue []*ssa.Function
	visit := func(from *ssa.Function, sc *scope.Scope, handed func(*ssa.Call) bool) {
		for _, b := range from.Blocks {
			for _, instr := range b.Instrs {
				call, ok := instr.(*ssa.Call)
				if !ok || !handed(call) {
					continue
				}
				fn := call.Common().StaticCallee()
				if fn == nil || fn.Pkg != info.Pkg || fn.Blocks == nil || info.Scopes.Of(fn) != nil || givenCtx(fn) == nil {
					continue
				}
				if _, seen := out[fn]; !seen {
					out[fn] = sc
					queue = append(queue, fn)
				}
			}
		}
	}
	for _, fn := range info.Funcs {
		if sc := info.Scopes.Of(fn); sc != nil {
			visit(fn, sc, func(call *ssa.Call) bool { return forRequest(call) && requestCtx(info.Origins, call) })
		}
	}
	for len(queue) > 0 {
		fn := queue[0]
		queue = queue[1:]
		param := givenCtx(fn)
		visit(fn, out[fn], func(call *ssa.Call) bool { return forRequest(call) && handsDown(info.Origins, call, param) })
	}
	return out
}

// requestCtx reports whether call is given, as its ctx, the request's ctx or one derived from
// it, on every path.
func requestCtx(origins *ctxorigin.Resolver, call *ssa.Call) bool {
	set := origins.Of(ctxArg(call.Common()))
	for _, o := range set {
		if o.Kind != ctxorigin.Request {
			return false
		}
	}
	return len(set) > 0
}

// handsDown reports whether call is given, as its ctx, the parameter param (or a ctx derived
// from it) on every path.
func handsDown(origins *ctxorigin.Resolver, call *ssa.Call, param *ssa.Parameter) bool {
	set := origins.Of(ctxArg(call.Common()))
	for _, o := range set {
		if o.Kind != ctxorigin.Param || o.Param != param {
			return false
		}
	}
	return len(set) > 0
}

// ctxArg returns the ctx argument of a call, or nil.
func ctxArg(common *ssa.CallCommon) ssa.Value {
	for _, a := range common.Args {
		if typesutil.IsContext(a.Type()) {
			return a
		}
	}
	return nil
}

// checkGiven returns the finding for call, made in fn — a helper a request scope, sc, hands
// the request's ctx as the parameter fn names — if call does the request's I/O without it
// although a ctx-taking variant exists.
func (c *checker) checkGiven(sc *scope.Scope, fn *ssa.Function, call ssa.CallInstruction) (analysis.Diagnostic, bool) {
	param := givenCtx(fn)
	if param == nil {
		return analysis.Diagnostic{}, false
	}
	callee := ctxorigin.Callee(call.Common())
	if callee == nil || !callersIO(callee) || variantOf(fn, callee) {
		return analysis.Diagnostic{}, false
	}
	if _, ok := call.(*ssa.Go); ok {
		return analysis.Diagnostic{}, false // a goroutine of its own, which may outlive the ctx it was given
	}
	adv := c.adviceFor(callee)
	if adv == nil || adv.inLoops || !forRequest(call) || ctxAddedLater(call, callee) {
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

// givenCtx returns the one ctx parameter of the declared function fn (or of the function
// declaring the literal fn, when the literal does not shadow it), when it has a name: a
// function given a ctx. Nil for none, several, or a blank or unnamed one (a ctx its author
// chose not to use).
func givenCtx(fn *ssa.Function) *ssa.Parameter {
	for fn.Parent() != nil {
		fn = fn.Parent()
	}
	var out *ssa.Parameter
	for _, p := range fn.Params {
		if typesutil.IsContext(p.Type()) {
			if out != nil {
				return nil
			}
			out = p
		}
	}
	if out == nil || out.Name() == "_" || out.Object() == nil || out.Object().Name() == "" || out.Object().Name() == "_" {
		return nil
	}
	return out
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

// variantOf reports whether fn is the ctx-taking variant of callee — a NextContext(ctx)
// written as a call of Next() — whose body the ctx-less one is, not a call that loses the ctx.
func variantOf(fn *ssa.Function, callee *types.Func) bool {
	obj, _ := fn.Object().(*types.Func)
	if obj == nil || obj.Name() != callee.Name()+"Context" || obj.Pkg() != callee.Pkg() {
		return false
	}
	r1, r2 := obj.Signature().Recv(), callee.Signature().Recv()
	if r1 == nil || r2 == nil {
		return r1 == nil && r2 == nil
	}
	n1, n2 := typesutil.Named(r1.Type()), typesutil.Named(r2.Type())
	return n1 != nil && n2 != nil && n1.Obj() == n2.Obj()
}
