package missingdeadline

import (
	"go/types"

	"golang.org/x/tools/go/ssa"

	"github.com/deadlinelint/deadlinelint/internal/callees"
	"github.com/deadlinelint/deadlinelint/internal/typesutil"
)

// interfaceSite classifies an interface call (method m) that takes a ctx: a site when every
// implementation the package can see is one of its own functions, known by its body — a
// client wrapper behind a small interface of the package — or, when every value the receiver
// may hold is in sight (callees.Resolver.Dynamic), every method of theirs is. An
// implementation out of sight may add a deadline: then the call is no site.
func (c *checker) interfaceSite(fn *ssa.Function, call ssa.CallInstruction, m *types.Func) *site {
	if m == nil || typesutil.CtxParamIndex(m.Signature()) < 0 {
		return nil
	}
	if c.targets == nil {
		c.targets = c.res.NewCallees()
	}
	var impls []*ssa.Function
	for _, t := range c.targets.Invoked(call.Common()) {
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
	if s.anyImpl {
		for _, impl := range s.impls {
			if c.needs[impl] != nil {
				return impl
			}
		}
		return nil
	}
	for _, impl := range s.impls {
		n := c.needs[impl]
		switch {
		case n != nil && (found == nil || c.needs[found].param-s.shifts[found] == n.param-s.shifts[impl]):
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

// dynamicSite classifies a call of a function value that takes a ctx: a method value of a
// generated client (an RPC), or a site when every function the value may hold
// (callees.Resolver.Values: a phi, a field, a map, a closure a helper returns) is one of the
// package's own, known by its body. One out of sight — a parameter too: the callback a
// runner such as retry(ctx, n, fn) calls is judged where the runner is called, with what it is
// given there (callbackSites) — and there is no site.
func (c *checker) dynamicSite(fn *ssa.Function, call ssa.CallInstruction) *site {
	if c.targets == nil {
		c.targets = c.res.NewCallees()
	}
	ts := c.targets.Values(call.Common().Value)
	if s := c.rpcValue(fn, call, ts); s != nil {
		return s
	}
	impls, shifts := c.local(ts)
	if impls == nil {
		return nil
	}
	return &site{fn: fn, instr: call, impls: impls, shifts: shifts, anyImpl: true}
}

// local returns the bodies of targets, the functions a value may hold, when every one is a
// function of the package, with the shift of each method value (its receiver is bound, not
// among the arguments); nil when one is out of sight.
func (c *checker) local(ts []callees.Target) ([]*ssa.Function, map[*ssa.Function]int) {
	var impls []*ssa.Function
	shifts := make(map[*ssa.Function]int)
	for _, t := range ts {
		if t.Fn == nil || t.Fn.Pkg != c.info.Pkg || t.Fn.Blocks == nil {
			return nil, nil
		}
		if t.Bound {
			shifts[t.Fn] = 1
		}
		impls = append(impls, t.Fn)
	}
	return impls, shifts
}

// rpcValue returns the site of a call of a function value that may be a method value of a
// generated client (call := c.inv.Adjust), when every other function it may hold is one too or
// one of the package's that ignores its ctx (a dry-run printer): on the path that makes the
// RPC, the call waits on it. Nil otherwise.
func (c *checker) rpcValue(fn *ssa.Function, call ssa.CallInstruction, ts []callees.Target) *site {
	var rpcSite *site
	for _, t := range ts {
		switch {
		case t.Fn == nil && t.Obj != nil && t.Bound:
			rpc, ok := classify(call.Common(), t.Obj, clientAPIs)
			if !ok || rpc.stream && !streams {
				return nil
			}
			if rpcSite == nil {
				rpc.conn = t.Recv
				rpcSite = &site{fn: fn, instr: call, rpc: &rpc, callee: t.Obj}
			}
		case t.Fn != nil && c.ignores(t.Fn):
		default:
			return nil
		}
	}
	return rpcSite
}

// callbackSites returns a site for each function value a call hands its callee that the
// callee runs with the ctx the call gives it, unchanged (ctxssa.Result.CallbackCtx):
// batch.Each(ctx, ids, j.refreshOne) makes refreshOne's RPC with ctx, call(ctx, c.Get, req)
// makes the RPC itself. As for an interface call, every function the value may hold must be
// one of the package's, or a client method.
func (c *checker) callbackSites(fn *ssa.Function, call ssa.CallInstruction) []*site {
	common := call.Common()
	if common.IsInvoke() || common.StaticCallee() == nil {
		return nil
	}
	if c.targets == nil {
		c.targets = c.res.NewCallees()
	}
	var out []*site
	for i, arg := range common.Args {
		if _, ok := arg.Type().Underlying().(*types.Signature); !ok {
			continue
		}
		j, bounded := c.res.CallbackCtx(c.targets, common, i)
		if j < 0 || bounded {
			continue // none passed on, or the callee bounds it by the wait the call gives it
		}
		ts := c.targets.Values(arg)
		if s := c.rpcValue(fn, call, ts); s != nil {
			s.rpc.ctx = common.Args[j] // a client method value the callee calls with this ctx: call(ctx, c.Get, req)
			out = append(out, s)
			continue
		}
		if impls, shifts := c.local(ts); impls != nil {
			out = append(out, &site{fn: fn, instr: call, impls: impls, shifts: shifts, cbCtx: j + 1, anyImpl: true})
		}
	}
	return out
}
