package ctxbackground

import (
	"fmt"
	"go/token"
	"go/types"
	"path/filepath"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/ssa"

	"github.com/deadlinelint/deadlinelint/internal/callees"
	"github.com/deadlinelint/deadlinelint/internal/ctxorigin"
	"github.com/deadlinelint/deadlinelint/internal/ctxssa"
	"github.com/deadlinelint/deadlinelint/internal/report"
	"github.com/deadlinelint/deadlinelint/internal/reqctx"
	"github.com/deadlinelint/deadlinelint/internal/scope"
)

// dropsCtx is the fact exported for a function that, called from anywhere, runs ctx-taking
// work with a root context of its own instead of its caller's ctx.
type dropsCtx struct {
	Root string // the root context, as "context.Background() at file.go:12"
	Via  string // the chain of calls leading to it from this function, "" if it is here
}

// AFact marks dropsCtx as an analysis fact.
func (*dropsCtx) AFact() {}

func (f *dropsCtx) String() string {
	if f.Via == "" {
		return "drops ctx: " + f.Root
	}
	return "drops ctx: " + f.Via + ": " + f.Root
}

// drop is what the package learned about one function: its fact, and for a root in this
// package, where it is.
type drop struct {
	fact    dropsCtx
	rootPos token.Pos // valid when the root is in this package
}

// dropper summarises the functions of one package and checks its request scopes' calls.
type dropper struct {
	pass    *analysis.Pass
	res     *ctxssa.Result
	info    *ctxssa.Info
	targets *callees.Resolver
	memo    map[*ssa.Function]*drop
	active  map[*ssa.Function]bool
}

func newDropper(pass *analysis.Pass, res *ctxssa.Result, info *ctxssa.Info) *dropper {
	return &dropper{
		pass: pass, res: res, info: info,
		targets: callees.New(info.Pkg, info.Funcs, res.Owned),
		memo:    make(map[*ssa.Function]*drop),
		active:  make(map[*ssa.Function]bool),
	}
}

// exportFacts exports a dropsCtx fact for every declared function of the package that drops
// its callers' ctx. Request scopes are reported directly and export nothing.
func (d *dropper) exportFacts() {
	for _, fn := range d.info.Funcs {
		obj := fn.Object()
		if obj == nil || d.info.Scopes.Of(fn) != nil {
			continue
		}
		if dr := d.dropsIn(fn); dr != nil {
			fact := dr.fact
			d.pass.ExportObjectFact(obj, &fact)
		}
	}
}

// dropsIn returns how fn (with the literals it creates) drops its caller's ctx, or nil.
func (d *dropper) dropsIn(fn *ssa.Function) *drop {
	if dr, ok := d.memo[fn]; ok {
		return dr
	}
	if d.active[fn] || d.info.Scopes.Of(fn) != nil {
		return nil
	}
	d.active[fn] = true
	dr := d.ownRoot(fn)
	if dr == nil {
		dr = d.viaCallee(fn)
	}
	delete(d.active, fn)
	d.memo[fn] = dr
	return dr
}

// ownRoot finds a root context that reaches a sink of fn and replaces a caller's ctx
// (not replacesNoCtx).
func (d *dropper) ownRoot(fn *ssa.Function) *drop {
	for _, f := range withLiterals(fn) {
		for _, s := range ctxorigin.Sinks(f) {
			for _, o := range d.info.Origins.Of(s.Ctx) {
				if o.Kind == ctxorigin.Root && !replacesNoCtx(o.Call) {
					return &drop{fact: dropsCtx{Root: d.describeRoot(o.Call)}, rootPos: o.Call.Pos()}
				}
			}
		}
	}
	return nil
}

// viaCallee finds a call in fn to a function that drops its caller's ctx.
func (d *dropper) viaCallee(fn *ssa.Function) *drop {
	for _, f := range withLiterals(fn) {
		for _, b := range f.Blocks {
			for _, instr := range b.Instrs {
				call, ok := instr.(ssa.CallInstruction)
				if !ok {
					continue
				}
				if name, dr := d.calleeDrop(call.Common()); dr != nil {
					via := name
					if dr.fact.Via != "" {
						via += " → " + dr.fact.Via
					}
					return &drop{fact: dropsCtx{Root: dr.fact.Root, Via: via}, rootPos: dr.rootPos}
				}
			}
		}
	}
	return nil
}

// calleeDrop returns the first possible target of a call that drops its caller's ctx, with
// its display name.
func (d *dropper) calleeDrop(common *ssa.CallCommon) (string, *drop) {
	for _, t := range d.targets.Targets(common) {
		if dr := d.targetDrop(t); dr != nil {
			return targetName(t), dr
		}
	}
	return "", nil
}

func (d *dropper) targetDrop(t callees.Target) *drop {
	if t.Fn != nil {
		return d.dropsIn(t.Fn)
	}
	var fact dropsCtx
	if t.Obj != nil && d.pass.ImportObjectFact(t.Obj, &fact) {
		return &drop{fact: fact}
	}
	return nil
}

// checkScopes reports the calls of request scopes to functions that drop the request ctx,
// and the sinks of request scopes reached by a root context that a helper returned; once per
// handler and root.
func (d *dropper) checkScopes(report func(analysis.Diagnostic)) {
	seen := make(map[string]bool)
	for _, fn := range d.info.Funcs {
		sc := d.info.Scopes.Of(fn)
		if sc == nil {
			continue
		}
		for _, s := range ctxorigin.Sinks(fn) {
			for _, o := range d.info.Origins.Of(s.Ctx) {
				if o.Kind != ctxorigin.Root || d.info.Scopes.Of(o.Call.Parent()) != nil || replacesNoCtx(o.Call) {
					continue // a root created in scope is reported where it is created
				}
				key := fmt.Sprint(sc.Handler().Func, o.Call)
				if !seen[key] {
					seen[key] = true
					report(d.returnedRoot(sc, s, o.Call))
				}
			}
		}
		for _, b := range fn.Blocks {
			for _, instr := range b.Instrs {
				call, ok := instr.(ssa.CallInstruction)
				if !ok {
					continue
				}
				name, dr := d.calleeDrop(call.Common())
				if dr == nil {
					continue
				}
				key := fmt.Sprint(sc.Handler().Func, dr.fact.Root)
				if seen[key] {
					continue
				}
				seen[key] = true
				report(d.diagnostic(sc, call, name, dr))
			}
		}
	}
}

func (d *dropper) diagnostic(sc *scope.Scope, call ssa.CallInstruction, name string, dr *drop) analysis.Diagnostic {
	pos, end := d.res.CallRange(call)
	spelled, _ := reqctx.Expr(d.pass, sc, pos)
	through := ""
	if dr.fact.Via != "" {
		through = " (through " + dr.fact.Via + ")"
	}
	diag := analysis.Diagnostic{
		Pos: pos, End: end,
		Message: fmt.Sprintf("%s, called in %s, runs ctx-taking work with %s%s instead of the caller's ctx: it ignores the caller's deadline and cancellation; pass %s down",
			name, reqctx.Where(sc), dr.fact.Root, through, spelled),
	}
	if dr.rootPos.IsValid() {
		diag.Related = []analysis.RelatedInformation{{Pos: dr.rootPos, Message: "the root context is created here"}}
	}
	return diag
}

// returnedRoot is the finding for a sink of scope sc whose ctx is a root context created by
// a helper of the package and returned to the scope.
func (d *dropper) returnedRoot(sc *scope.Scope, s ctxorigin.Sink, root *ssa.Call) analysis.Diagnostic {
	pos, end := d.res.CallRange(s.Instr)
	spelled, _ := reqctx.Expr(d.pass, sc, pos)
	return analysis.Diagnostic{
		Pos: pos, End: end,
		Message: fmt.Sprintf("%s in %s gets %s from %s instead of the caller's ctx: it ignores the caller's deadline and cancellation; pass %s",
			report.FuncName(s.Func), reqctx.Where(sc), d.describeRoot(root), funcLabel(root.Parent()), spelled),
		Related: []analysis.RelatedInformation{{Pos: root.Pos(), Message: "the root context is created here"}},
	}
}

// describeRoot spells a root context call and its place for a fact.
func (d *dropper) describeRoot(call *ssa.Call) string {
	p := d.pass.Fset.Position(call.Pos())
	return fmt.Sprintf("context.%s() at %s:%d", ctxorigin.Callee(call.Common()).Name(), filepath.Base(p.Filename), p.Line)
}

// targetName names a call target for a message: "pricing.Quote", "(*pgRepo).Load".
func targetName(t callees.Target) string {
	switch {
	case t.Obj == nil && t.Field != "":
		return "the function in field " + t.Field
	case t.Obj == nil:
		return "a function literal"
	case t.Impl != "":
		return "(" + t.Impl + ")." + t.Obj.Name()
	case t.Obj.Signature().Recv() != nil && t.Obj.Pkg() != nil:
		return t.Obj.Pkg().Name() + "." + report.FuncName(t.Obj)
	}
	return t.Obj.Pkg().Name() + "." + t.Obj.Name()
}

// funcLabel names an SSA function for a message.
func funcLabel(fn *ssa.Function) string {
	if obj, ok := fn.Object().(*types.Func); ok && obj != nil {
		return report.FuncName(obj)
	}
	return fn.Name()
}

// withLiterals returns fn and the function literals that run as part of a call to it,
// transitively: literals it calls, starts as goroutines, defers or passes to a call (a
// callback such as errgroup's Go). A literal stored for later (a field, a return value)
// does not run then, and is left out.
func withLiterals(fn *ssa.Function) []*ssa.Function {
	out := []*ssa.Function{fn}
	for i := 0; i < len(out); i++ {
		for _, anon := range out[i].AnonFuncs {
			if runsNow(anon) {
				out = append(out, anon)
			}
		}
	}
	return out
}

// runsNow reports whether the function literal anon is called, or handed to a call, by the
// function that creates it.
func runsNow(anon *ssa.Function) bool {
	var v ssa.Value = anon
	if refs := anon.Referrers(); refs != nil {
		for _, ref := range *refs {
			if mc, ok := ref.(*ssa.MakeClosure); ok {
				v = mc
			}
		}
	}
	refs := v.Referrers()
	if refs == nil {
		return false
	}
	for _, ref := range *refs {
		if _, ok := ref.(ssa.CallInstruction); ok {
			return true
		}
	}
	return false
}
