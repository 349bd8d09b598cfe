package ctxorigin

import (
	"golang.org/x/tools/go/ssa"

	"github.com/deadlinelint/deadlinelint/internal/typesutil"
)

// ForRequest reports whether call, in a request scope, is work done for the request, which the
// request's ctx should bound: not cleanup as the scope returns (a deferred call, or one in a
// deferred literal: a lock released with db.Exec must be released when the ctx is done too),
// nor what runs only once the ctx is done or on the way out of a failure, nor one-time
// initialisation of state every later request shares (a statement prepared in the server's
// sync.Once, or on the first use of its state). The request's ctx there would let one cancelled
// request leave a lock held, or break what every other request relies on; what such work
// needs is a bound of its own, which is not this rule's to say.
func ForRequest(call ssa.CallInstruction) bool {
	if _, ok := call.(*ssa.Defer); ok {
		return false
	}
	fn := call.Parent()
	return !InDeferred(fn) && !InSharedOnce(fn) && !FirstUseOfServer(call) &&
		!AfterDone(call) && !AfterFailure(call)
}

// GivenCtx returns the one ctx parameter of the declared function fn (or of the function
// declaring the literal fn), when it has a name: a function given a ctx. Nil for none, several,
// or a blank or unnamed one (a ctx its author chose not to use).
func GivenCtx(fn *ssa.Function) *ssa.Parameter {
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
	if out == nil || out.Object() == nil || out.Object().Name() == "" || out.Object().Name() == "_" {
		return nil
	}
	return out
}
