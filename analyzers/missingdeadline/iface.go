package missingdeadline

import (
	"go/types"

	"golang.org/x/tools/go/ssa"

	"github.com/deadlinelint/deadlinelint/internal/callees"
	"github.com/deadlinelint/deadlinelint/internal/typesutil"
)

// interfaceSite classifies an interface call (method m) that takes a ctx: a site when every
// implementation the package can see is one of its own functions, known by its body — a
// client wrapper behind a small interface of the package. An implementation out of sight may
// add a deadline: then the call is no site.
func (c *checker) interfaceSite(fn *ssa.Function, call ssa.CallInstruction, m *types.Func) *site {
	if m == nil || typesutil.CtxParamIndex(m.Signature()) < 0 {
		return nil
	}
	if c.targets == nil {
		c.targets = callees.New(c.info.Pkg, c.info.Funcs, c.res.Owned)
	}
	var impls []*ssa.Function
	for _, t := range c.targets.Targets(call.Common()) {
		if t.Fn == nil || t.Fn.Pkg != c.info.Pkg || t.Fn.Blocks == nil {
			return nil
		}
		impls = append(impls, t.Fn)
	}
	if len(impls) == 0 {
		return nil
	}
	// The receiver is not among an interface call's arguments: shift 1, as for a method value.
	return &site{fn: fn, instr: call, impls: impls, callee: m, shift: 1}
}

// localOf returns the function of the package whose need a site passes on: its static callee,
// or, for an interface call, an implementation that needs a deadline when every other one does
// too (for the same parameter) or ignores its ctx. One implementation that may add a deadline,
// or works with the ctx in another way, and the call may well have one: nil.
func (c *checker) localOf(s *site) *ssa.Function {
	if s.local != nil {
		if c.needs[s.local] == nil {
			return nil
		}
		return s.local
	}
	var found *ssa.Function
	for _, impl := range s.impls {
		n := c.needs[impl]
		switch {
		case n != nil && (found == nil || c.needs[found].param == n.param):
			if found == nil {
				found = impl
			}
		case n == nil && c.ignores(impl):
		default:
			return nil
		}
	}
	return found
}

// ignores reports whether impl does nothing with its ctx: it makes no RPC with it.
func (c *checker) ignores(impl *ssa.Function) bool {
	obj, ok := impl.Object().(*types.Func)
	return ok && c.res.IgnoresCtx(obj)
}
