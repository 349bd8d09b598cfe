package missingdeadline

import (
	"fmt"
	"go/types"
	"slices"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/ssa"

	"github.com/deadlinelint/deadlinelint/internal/ctxorigin"
	"github.com/deadlinelint/deadlinelint/internal/report"
)

// A library's convenience API — an exported function or method that takes no ctx and makes
// its RPC with context.Background() (Foo() calling FooWithContext(context.Background())) — is
// the library's decision, documented by its signature: its caller cannot pass a deadline in.
// The finding belongs to the code that chose to call it where a deadline matters: its callers
// in the module, outside request scopes (a call in a handler is ctxbackground's), reported
// there once. A caller that is itself such an API passes the question on to its own callers.

// noCtxAPI is the object fact of an exported function or method with no ctx parameter that
// makes a unary RPC with a ctx of its own that has no deadline.
type noCtxAPI struct {
	Path string // the calls from the function down to the RPC
	Root string // the root context, "context.Background()"
	// Needs are the values its parameters must have for the RPC to be made: a branch on a bool
	// parameter (if apply { … }) or on one compared with a constant, on every way down to it.
	// A caller passing another constant makes no RPC (a dry run).
	Needs []ctxorigin.ParamValue
}

// needsAt returns the values fn's parameters must have for instr, in fn, to run; none for
// an instruction of a function literal (ctxorigin.ParamValuesAt).
func needsAt(fn *ssa.Function, instr ssa.Instruction) []ctxorigin.ParamValue {
	if fn.Parent() != nil {
		return nil
	}
	return ctxorigin.ParamValuesAt(fn, instr)
}

// contradicted reports whether the call of callee gives one of the parameters needs are about
// (indexed receiver first) a constant other than the value needed: it never reaches the RPC.
// A call through a method value passes no receiver among its arguments.
func contradicted(needs []ctxorigin.ParamValue, call ssa.CallInstruction, callee *types.Func) bool {
	args := call.Common().Args
	if callee.Signature().Recv() != nil && !ctxorigin.ReceiverInArgs(call.Common(), callee) {
		args = append([]ssa.Value{nil}, args...) // the receiver, bound: no constant
	}
	return ctxorigin.Contradicted(needs, args)
}

// common returns the needs both a and b hold: what every one of two ways to the RPC needs.
func common(a, b []ctxorigin.ParamValue) []ctxorigin.ParamValue {
	var out []ctxorigin.ParamValue
	for _, n := range a {
		if slices.Contains(b, n) {
			out = append(out, n)
		}
	}
	return out
}

// addWay records in apis a way from api down to an RPC, needing needs: the first way, or
// the needs it shares with the ways already recorded. It reports whether the fact changed.
func addWay(apis map[*types.Func]*noCtxAPI, api *types.Func, f noCtxAPI) bool {
	old := apis[api]
	if old == nil {
		apis[api] = &f
		return true
	}
	needs := common(old.Needs, f.Needs)
	if len(needs) == len(old.Needs) {
		return false
	}
	old.Needs = needs
	return true
}

// AFact marks noCtxAPI as an analysis fact.
func (*noCtxAPI) AFact() {}

func (f *noCtxAPI) String() string {
	if len(f.Needs) == 0 {
		return fmt.Sprintf("noCtxAPI(%s: %s)", f.Root, f.Path)
	}
	return fmt.Sprintf("noCtxAPI(%s: %s, when %v)", f.Root, f.Path, f.Needs)
}

// isNoCtxAPI reports whether fn, or the declared function a literal fn is nested in, is an
// exported function or method of an exported type that takes no ctx (ctxorigin.NoCtxAPI).
func (c *checker) isNoCtxAPI(fn *ssa.Function) (*types.Func, bool) { return ctxorigin.NoCtxAPI(fn) }

// apiCallers reports the calls of the package's no-ctx APIs (apis, found in this package) and
// of imported ones (by their fact) made outside request scopes and outside other such APIs,
// and exports the facts of the exported ones, passing the question on through APIs that call
// APIs.
func (c *checker) apiCallers(rep *report.Reporter, apis map[*types.Func]*noCtxAPI) {
	lookup := func(obj *types.Func) *noCtxAPI {
		if f := apis[obj]; f != nil {
			return f
		}
		var f noCtxAPI
		if obj.Pkg() != c.pass.Pkg && c.pass.ImportObjectFact(obj, &f) {
			return &f
		}
		return nil
	}
	for changed := true; changed; { // APIs calling APIs, to a fixpoint
		changed = false
		for _, cl := range c.static {
			f := lookup(cl.callee)
			outer, isAPI := c.isNoCtxAPI(cl.fn)
			if f != nil && isAPI && !contradicted(f.Needs, cl.instr, cl.callee) &&
				addWay(apis, outer, noCtxAPI{Path: prepend(report.FuncName(cl.callee), f.Path), Root: f.Root, Needs: needsAt(cl.fn, cl.instr)}) {
				changed = true
			}
		}
	}
	for obj, f := range apis {
		if obj.Pkg() == c.pass.Pkg {
			c.pass.ExportObjectFact(obj, f)
		}
	}
	for _, cl := range c.static {
		f := lookup(cl.callee)
		if _, isAPI := c.isNoCtxAPI(cl.fn); f == nil || isAPI || c.sealed()[declOf(cl.fn)] || contradicted(f.Needs, cl.instr, cl.callee) {
			continue // a constant argument that keeps the API from its RPC (a dry run) makes none
		}
		pos, end := c.res.CallRange(cl.instr)
		rpc, _ := split(f.Path)
		d := analysis.Diagnostic{Pos: pos, End: end, Message: fmt.Sprintf(
			"%s calls RPC %s with %s, which has no deadline; it takes no ctx: call a variant that takes one (or add it) with a deadline",
			report.FuncName(cl.callee), rpc, f.Root)}
		if cl.callee.Pos().IsValid() {
			d.Related = []analysis.RelatedInformation{{Pos: report.DeclPos(c.pass.Fset, cl.callee), Message: report.FuncName(cl.callee) + " is declared here"}}
		}
		rep.Report(d)
	}
}
