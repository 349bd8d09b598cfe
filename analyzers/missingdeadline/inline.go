package missingdeadline

import (
	"golang.org/x/tools/go/ssa"

	"github.com/deadlinelint/deadlinelint/internal/ctxorigin"
	"github.com/deadlinelint/deadlinelint/internal/typesutil"
)

// unbounded returns the origins of the ctx a site hands to an RPC that reach it with no
// deadline, leaving out what cannot be judged (opaque paths) and what a visible default
// covers.
func (c *checker) unbounded(s *site, ctx ssa.Value) []ctxorigin.Origin {
	set := c.info.Origins.Of(ctx)
	var out []ctxorigin.Origin
	for _, o := range set {
		if o.Deadline || o.Opaque || c.defaulted(s.fn, set, o) {
			continue
		}
		out = append(out, o)
	}
	return out
}

// defaulted reports whether origin o, which has no deadline on one path, is given a default
// one in the calling function: the same origin also reaches the call with a deadline, and the
// function (or one enclosing it, or a ctx-returning helper of the package it calls) checks
// Deadline() on a ctx — the inline form of the default-deadline interceptor:
//
//	if _, ok := ctx.Deadline(); !ok {
//		ctx, cancel = context.WithTimeout(ctx, d)
//	}
func (c *checker) defaulted(fn *ssa.Function, set ctxorigin.Set, o ctxorigin.Origin) bool {
	for _, b := range set {
		if b.Deadline && !b.Opaque && b.Kind == o.Kind && b.Call == o.Call && b.Desc == o.Desc && b.Param == o.Param {
			return c.checksDeadline(fn) || optionalTimeout(fn)
		}
	}
	return false
}

// optionalTimeout reports whether fn, or a function enclosing it, branches on a comparison of
// a time.Duration with a constant — or of another number that the deadline it applies is
// computed from (a -max-time flag in seconds, `if *maxTime > 0 { ctx, cancel =
// context.WithTimeout(ctx, seconds(*maxTime)) }`): the deadline is applied only when the user
// asks for one (`if *timeout > 0 { ctx, cancel = context.WithTimeout(ctx, *timeout) }`, a
// -timeout flag that defaults to none). No deadline on the other path is the user's decision.
func optionalTimeout(fn *ssa.Function) bool {
	for f := fn; f != nil; f = f.Parent() {
		for _, b := range f.Blocks {
			x := ctxorigin.ComparedWithConst(b)
			if x == nil {
				continue
			}
			if typesutil.IsNamed(x.Type(), "time", "Duration") {
				return true
			}
			if g, ok := ctxorigin.Stored(x).(*ssa.Global); ok && ctxorigin.DeadlineFrom(f, g) {
				return true
			}
		}
	}
	return false
}

// checksDeadline reports whether fn, a function enclosing it, or a ctx-returning helper of
// the package one of them calls, calls Deadline() on a context.Context.
func (c *checker) checksDeadline(fn *ssa.Function) bool {
	for f := fn; f != nil; f = f.Parent() {
		if callsDeadline(f) {
			return true
		}
		for _, b := range f.Blocks {
			for _, instr := range b.Instrs {
				call, ok := instr.(*ssa.Call)
				if !ok {
					continue
				}
				callee := call.Common().StaticCallee()
				if callee != nil && callee.Pkg == c.info.Pkg && typesutil.ReturnsContext(callee.Signature) && callsDeadline(callee) {
					return true
				}
			}
		}
	}
	return false
}

// callsDeadline reports whether fn's own body calls Deadline() on a context.Context.
func callsDeadline(fn *ssa.Function) bool {
	for _, b := range fn.Blocks {
		for _, instr := range b.Instrs {
			call, ok := instr.(*ssa.Call)
			if !ok {
				continue
			}
			if common := call.Common(); common.IsInvoke() && common.Method.Name() == "Deadline" && typesutil.IsContext(common.Value.Type()) {
				return true
			}
		}
	}
	return false
}
