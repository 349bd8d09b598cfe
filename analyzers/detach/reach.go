package detach

import (
	"go/types"

	"golang.org/x/tools/go/ssa"

	"github.com/deadlinelint/deadlinelint/internal/ctxorigin"
)

// reach decides which ctx-taking work a detached ctx reaches with no deadline of its own.
//
// A sink whose callee has a body in the package is not work by itself: the ctx becomes the
// callee's parameter, and the callee does unbounded work only if that parameter reaches, with
// no deadline added, a sink that is work. The user's functions in other packages are known
// the same way, through the workParam fact. Calls that only read from, or log with, their ctx
// are not sinks at all (ctxorigin.IsReader). Any other sink (a library function, an interface
// method, a func value) is work.
type reach struct {
	origins *ctxorigin.Resolver
	// elsewhere answers for a callee whose body is in another package: whether its
	// parameter i is work. It knows the user's own functions through facts.
	elsewhere func(fn *types.Func, i int) bool
	memo      map[*ssa.Parameter]bool
	active    map[*ssa.Parameter]bool
}

func newReach(origins *ctxorigin.Resolver, elsewhere func(*types.Func, int) bool) *reach {
	return &reach{
		origins:   origins,
		elsewhere: elsewhere,
		memo:      make(map[*ssa.Parameter]bool),
		active:    make(map[*ssa.Parameter]bool),
	}
}

// unboundedSinks returns, for each of calls (context.WithoutCancel calls), the sinks of funcs
// where its result arrives with no deadline on some path and starts work.
func (r *reach) unboundedSinks(funcs []*ssa.Function, calls []*ssa.Call) map[*ssa.Call][]ctxorigin.Sink {
	wanted := make(map[*ssa.Call]bool, len(calls))
	for _, c := range calls {
		wanted[c] = true
	}
	out := make(map[*ssa.Call][]ctxorigin.Sink)
	for _, fn := range funcs {
		for _, s := range ctxorigin.Sinks(fn) {
			for _, call := range r.unboundedDetaches(s, wanted) {
				out[call] = append(out[call], s)
			}
		}
	}
	return out
}

// unboundedDetaches returns the wanted WithoutCancel calls whose result reaches sink s with no
// deadline, if s is work.
func (r *reach) unboundedDetaches(s ctxorigin.Sink, wanted map[*ssa.Call]bool) []*ssa.Call {
	var out []*ssa.Call
	set := r.origins.Of(s.Ctx)
	for _, o := range set {
		if o.Kind == ctxorigin.Detached && wanted[o.Call] && unbounded(o) && !contains(out, o.Call) {
			out = append(out, o.Call)
		}
	}
	if len(out) > 0 && !r.isWork(s) {
		return nil
	}
	return out
}

// unbounded reports whether o is known to carry no deadline: none was applied, and it did not
// pass through a function whose effect is unknown.
func unbounded(o ctxorigin.Origin) bool { return !o.Deadline && !o.Opaque }

// isWork reports whether sink s does work with its ctx that is not bounded further down.
func (r *reach) isWork(s ctxorigin.Sink) bool {
	common := s.Instr.Common()
	callee := common.StaticCallee()
	if callee == nil {
		return true
	}
	body := ctxorigin.Body(callee)
	if body == nil {
		for i, arg := range common.Args {
			if arg == s.Ctx {
				return r.elsewhere(s.Func, i)
			}
		}
		return true
	}
	for i, arg := range common.Args {
		if arg == s.Ctx && i < len(body.Params) {
			return r.paramReachesWork(body, body.Params[i])
		}
	}
	return true
}

// paramReachesWork reports whether the ctx parameter p of fn reaches, in fn or the closures
// it creates, a sink that is work with no deadline added. Recursion answers false: the outer
// query decides.
func (r *reach) paramReachesWork(fn *ssa.Function, p *ssa.Parameter) bool {
	if v, ok := r.memo[p]; ok {
		return v
	}
	if r.active[p] {
		return false
	}
	r.active[p] = true
	found := false
	for _, g := range ctxorigin.WithLiterals(fn) {
		for _, s := range ctxorigin.Sinks(g) {
			if r.paramArrives(s, p) && r.isWork(s) {
				found = true
				break
			}
		}
		if found {
			break
		}
	}
	delete(r.active, p)
	r.memo[p] = found
	return found
}

// paramArrives reports whether parameter p reaches sink s with no deadline on some path, other
// than one that only a ctx with a deadline takes (ctxorigin.Defaulted: a wrapper applying its
// default deadline when the ctx it is given has none — a detached one).
func (r *reach) paramArrives(s ctxorigin.Sink, p *ssa.Parameter) bool {
	set := r.origins.Of(s.Ctx)
	for _, o := range set {
		if o.Kind == ctxorigin.Param && o.Param == p && unbounded(o) && !ctxorigin.Defaulted(s.Instr.Parent(), set, o) {
			return true
		}
	}
	return false
}

func contains(calls []*ssa.Call, c *ssa.Call) bool {
	for _, x := range calls {
		if x == c {
			return true
		}
	}
	return false
}
