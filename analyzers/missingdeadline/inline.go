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
// one in the calling function (ctxorigin.Defaulted: the inline form of the default-deadline
// interceptor), or one only when the user asks for it (optionalTimeout).
func (c *checker) defaulted(fn *ssa.Function, set ctxorigin.Set, o ctxorigin.Origin) bool {
	return ctxorigin.DeadlineOnOtherPath(set, o) && (ctxorigin.ChecksDeadline(fn) || optionalTimeout(fn))
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
