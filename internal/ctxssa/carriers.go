package ctxssa

import (
	"sync"

	"golang.org/x/tools/go/ssa"

	"github.com/deadlinelint/deadlinelint/internal/ctxorigin"
	"github.com/deadlinelint/deadlinelint/internal/typesutil"
)

// carriers answers, for one package, which ctx parameters of functions that are not request
// scopes receive a request's ctx: a scope calls the function with its request ctx (or one
// derived from it), or a function whose parameter does so passes it on. Only static calls
// within the package are followed; a function called from elsewhere, or through a value, is not
// known to carry a request.
type carriers struct {
	once   sync.Once
	params map[*ssa.Parameter]bool
}

// FromRequest reports whether the ctx value v, in a function of the package, is a request's on
// some path: the request ctx of the enclosing scope, or a parameter a scope of the package hands
// its request ctx to, directly or through other functions of the package.
func (i *Info) FromRequest(v ssa.Value) bool {
	i.carriers.once.Do(i.findCarriers)
	return i.fromRequest(v)
}

func (i *Info) fromRequest(v ssa.Value) bool {
	for _, o := range i.Origins.Of(v) {
		if o.Kind == ctxorigin.Request || o.Kind == ctxorigin.Param && i.carriers.params[o.Param] {
			return true
		}
	}
	return false
}

// findCarriers marks, from the request scopes outward, the parameters that receive a request's
// ctx.
func (i *Info) findCarriers() {
	i.carriers.params = make(map[*ssa.Parameter]bool)
	var queue []*ssa.Function
	for _, fn := range i.Funcs {
		if i.Scopes.Of(fn) != nil {
			queue = append(queue, fn)
		}
	}
	seen := make(map[*ssa.Function]bool)
	for len(queue) > 0 {
		fn := queue[0]
		queue = queue[1:]
		if seen[fn] {
			continue
		}
		seen[fn] = true
		for _, f := range ctxorigin.WithLiterals(fn) {
			queue = append(queue, i.markCallees(f)...)
		}
	}
}

// markCallees marks the ctx parameters of the package's functions that fn calls with a
// request's ctx, and returns the functions newly marked.
func (i *Info) markCallees(fn *ssa.Function) []*ssa.Function {
	var out []*ssa.Function
	for _, b := range fn.Blocks {
		for _, instr := range b.Instrs {
			call, ok := instr.(ssa.CallInstruction)
			if !ok || call.Common().IsInvoke() {
				continue
			}
			callee := call.Common().StaticCallee()
			if callee == nil {
				continue
			}
			body := ctxorigin.Body(callee)
			if body == nil || body.Pkg != i.Pkg || i.Scopes.Of(body) != nil {
				continue
			}
			for j, arg := range call.Common().Args {
				if j >= len(body.Params) || !typesutil.IsContext(arg.Type()) || i.carriers.params[body.Params[j]] {
					continue
				}
				if i.fromRequest(arg) {
					i.carriers.params[body.Params[j]] = true
					out = append(out, body)
				}
			}
		}
	}
	return out
}
