package ctxssa

import (
	"go/types"

	"golang.org/x/tools/go/ssa"

	"github.com/deadlinelint/deadlinelint/internal/ctxorigin"
	"github.com/deadlinelint/deadlinelint/internal/scope"
)

// Twin returns the ctx-taking variant of the ctx-less method m (ctxorigin.Twin), unless that
// variant does no work with its ctx: an interface's method every implementation of which only
// reads values from it, or a method that refers to its ctx only to carry values.
func (r *Result) Twin(m *types.Func) (twin *types.Func, exact bool) {
	return ctxorigin.Twin(m, func(t *types.Func) bool { return r.InterfaceNoWork(t) || r.FuncCarriesOnly(t) })
}

// TwinLeft reports whether call is a ctx-less call of a method whose ctx-taking variant exists
// (Twin), made in a helper of the package a request scope hands the request's ctx
// (HandedRequest), which is not that variant itself, and for the request
// (ctxorigin.ForRequest): ctxless reports it there (use GetContext(ctx, ...)), so what the
// ctx-less method does behind it, a root of its own, is that one decision — not a second finding
// at the scope's call of the helper. In a request scope itself both rules report the one call,
// at its line: ctxless the call, ctxbackground the root behind it.
func (r *Result) TwinLeft(call ssa.CallInstruction) bool {
	if _, isCall := call.(*ssa.Call); !isCall || !ctxorigin.ForRequest(call) {
		return false
	}
	callee := ctxorigin.Callee(call.Common())
	if callee == nil {
		return false
	}
	if twin, _ := r.Twin(callee); twin == nil {
		return false
	}
	fn := call.Parent()
	_, handed := r.HandedRequest()[fn]
	return handed && !ctxorigin.IsVariantOf(fn, callee)
}

// HandedRequest returns the helpers of the package a request scope hands the request's ctx (see
// handedRequest), with the scope that first does; computed once per package.
func (r *Result) HandedRequest() map[*ssa.Function]*scope.Scope {
	r.handedOnce.Do(func() { r.handed = handedRequest(r.SSA()) })
	return r.handed
}

// handedRequest returns the functions of the package, not request scopes, that a request scope
// hands the request's ctx (or one derived from it) as their one ctx parameter, directly or
// through such helpers handing it on; for each, the scope that first does.
func handedRequest(info *Info) map[*ssa.Function]*scope.Scope {
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
				if fn == nil || fn.Pkg != info.Pkg || fn.Blocks == nil || info.Scopes.Of(fn) != nil || ctxorigin.GivenCtx(fn) == nil {
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
			visit(fn, sc, func(call *ssa.Call) bool { return ctxorigin.ForRequest(call) && requestCtx(info.Origins, call) })
		}
	}
	for len(queue) > 0 {
		fn := queue[0]
		queue = queue[1:]
		param := ctxorigin.GivenCtx(fn)
		visit(fn, out[fn], func(call *ssa.Call) bool { return ctxorigin.ForRequest(call) && handsDown(info.Origins, call, param) })
	}
	return out
}

// requestCtx reports whether call is given, as its ctx, the request's ctx or one derived from
// it, on every path.
func requestCtx(origins *ctxorigin.Resolver, call *ssa.Call) bool {
	return origins.Of(ctxorigin.CtxArg(call.Common())).Only(ctxorigin.Request)
}

// handsDown reports whether call is given, as its ctx, the parameter param (or a ctx derived
// from it) on every path.
func handsDown(origins *ctxorigin.Resolver, call *ssa.Call, param *ssa.Parameter) bool {
	set := origins.Of(ctxorigin.CtxArg(call.Common()))
	for _, o := range set {
		if o.Kind != ctxorigin.Param || o.Param != param {
			return false
		}
	}
	return len(set) > 0
}
