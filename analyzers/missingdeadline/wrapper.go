package missingdeadline

import (
	"fmt"
	"go/types"

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
}

// AFact marks noCtxAPI as an analysis fact.
func (*noCtxAPI) AFact() {}

func (f *noCtxAPI) String() string { return fmt.Sprintf("noCtxAPI(%s: %s)", f.Root, f.Path) }

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
			if f != nil && isAPI && apis[outer] == nil {
				apis[outer] = &noCtxAPI{Path: prepend(report.FuncName(cl.callee), f.Path), Root: f.Root}
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
		if _, isAPI := c.isNoCtxAPI(cl.fn); f == nil || isAPI || c.sealed()[declOf(cl.fn)] {
			continue
		}
		pos, end := c.res.CallRange(cl.instr)
		rpc, _ := split(f.Path)
		d := analysis.Diagnostic{Pos: pos, End: end, Message: fmt.Sprintf(
			"%s calls RPC %s with %s, which has no deadline; call its variant that takes a ctx",
			report.FuncName(cl.callee), rpc, f.Root)}
		if cl.callee.Pos().IsValid() {
			d.Related = []analysis.RelatedInformation{{Pos: report.DeclPos(c.pass.Fset, cl.callee), Message: report.FuncName(cl.callee) + " is declared here"}}
		}
		rep.Report(d)
	}
}
