package statusmask

import (
	"fmt"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/ssa"

	"github.com/deadlinelint/deadlinelint/internal/typesutil"
)

// A mapping helper of the package (func toStatus(err error) error) that a request scope hands
// an error which may be the request's deadline or cancellation is trusted, in the scope, to
// tell it apart (asks). When the helper does not — it gives its error a constant code other
// than DeadlineExceeded, Canceled and OK with nothing on the way asking what the error is but
// for sentinels of its own (errors.Is(err, ErrNotFound)) — the mask is in the helper: it is
// reported there, at the translation, once however many scopes hand it such an error, with the
// first scope's call as a related position. Only a function of the package with a body, that
// is no request scope itself, and only its own translations (not those of helpers it calls).

// handed is an error a request scope hands a helper: where, by which scope, and what made it.
type handed struct {
	call   *ssa.Call // the scope's call of the helper
	scope  string    // the scope's name (Scope.Name)
	origin string    // what made the error: a call given the request's ctx, or its ctx.Err()
}

// helperErrors returns, for call in a request scope, the error parameters of its callee — a
// function of the package with a body, no request scope — that it hands an error which may be
// the request's deadline or cancellation, told apart by nothing in the scope but this call.
func (c *checker) helperErrors(call *ssa.Call, scopeName string) (*ssa.Function, map[*ssa.Parameter]handed) {
	callee := declared(call.Common().StaticCallee())
	if callee == nil || callee.Pkg != c.info.Pkg || callee.Blocks == nil || c.info.Scopes.IsScope(callee) ||
		callee.Parent() != nil || len(callee.Params) != len(call.Common().Args) {
		return nil, nil
	}
	var out map[*ssa.Parameter]handed
	for i, arg := range call.Common().Args {
		if !typesutil.IsError(arg.Type()) {
			continue
		}
		w := &walk{c: c, seen: make(map[ssa.Value]bool), at: call.Block(), skip: call}
		w.contents(arg, 0)
		var origin string
		switch {
		case w.ctxErr != nil:
			origin = "the request ctx's error"
		case w.told || w.origin == nil || asksCtxErr(call):
			continue
		default:
			origin = "the error of " + calleeName(w.origin.Common())
		}
		if out == nil {
			out = make(map[*ssa.Parameter]handed)
		}
		out[callee.Params[i]] = handed{call: call, scope: scopeName, origin: origin}
	}
	return callee, out
}

// checkHelper returns the findings for the translations in helper of the errors its
// parameters are handed (helperErrors).
func (c *checker) checkHelper(helper *ssa.Function, params map[*ssa.Parameter]handed) []analysis.Diagnostic {
	var out []analysis.Diagnostic
	for _, b := range helper.Blocks {
		for _, instr := range b.Instrs {
			call, ok := instr.(*ssa.Call)
			if !ok {
				continue
			}
			t, ok := translationOf(call)
			if !ok || asksCtxErr(call) {
				continue
			}
			for _, p := range helper.Params { // in order: one message, whichever run
				h, ok := params[p]
				if !ok {
					continue
				}
				w := &walk{c: c, seen: make(map[ssa.Value]bool), at: call.Block(), param: p, self: helper}
				for _, v := range t.sources {
					w.contents(v, 0)
				}
				if !w.paramHit || w.told {
					continue
				}
				pos, end := c.res.CallRange(call)
				keep := "status.FromContextError"
				if t.fn.Pkg().Path() == typesutil.ConnectPath {
					keep = "connect.CodeDeadlineExceeded or connect.CodeCanceled"
				}
				out = append(out, analysis.Diagnostic{
					Pos: pos, End: end,
					Message: fmt.Sprintf("%s gives code %s to %s, which %s hands it from %s and may be the request's deadline or cancellation; keep a context error's code (%s)",
						typesutil.FuncName(t.fn), codeName(t), p.Name(), h.scope, h.origin, keep),
					Related: []analysis.RelatedInformation{{Pos: h.call.Pos(), Message: h.scope + " hands it here"}},
				})
				break
			}
		}
	}
	return out
}

// declared returns the function fn is, or instantiates: an instance of a generic helper is one
// helper, its generic body.
func declared(fn *ssa.Function) *ssa.Function {
	if fn != nil && fn.Origin() != nil {
		return fn.Origin()
	}
	return fn
}
