package ctxbackground

import (
	"fmt"
	"go/token"
	"sort"

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
// its callers' ctx,. Request scopes are reported directly and export no dropsCtx.
func (d *dropper) exportFacts() {
	for _, fn := range d.info.Funcs {
		obj := fn.Object()
		if obj == nil {
			continue
		}
		if d.info.Scopes.Of(fn) != nil {
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

// ownRoot finds a root context that reaches a sink of fn, run on behalf of fn's caller, and
// replaces a caller's ctx (not ctxorigin.ReplacesNoCtx): created in fn, or returned to it by a
// function it calls. A fresh budget (WithTimeout(Background(), d)) replaces the caller's too.
func (d *dropper) ownRoot(fn *ssa.Function) *drop {
	for _, f := range withLiterals(fn) {
		for _, s := range ctxorigin.Sinks(f) {
			if !onBehalf(s.Instr) || dynamic(s.Instr) {
				continue
			}
			for _, o := range d.info.Origins.Of(s.Ctx) {
				if o.Kind == ctxorigin.Root && (o.Call == nil || !ctxorigin.ReplacesNoCtx(o.Call)) {
					return d.rootDrop(o)
				}
			}
		}
	}
	return nil
}

// rootDrop is the drop of a root context origin o.
func (d *dropper) rootDrop(o ctxorigin.Origin) *drop {
	dr := &drop{fact: dropsCtx{Root: o.Desc}}
	if o.Call != nil {
		dr.fact.Root, dr.rootPos = ctxorigin.Describe(o.Call), o.Call.Pos()
	}
	if o.Via != nil {
		dr.fact.Via = calleeLabel(o.Via)
	}
	return dr
}

// viaCallee finds a call in fn to a function that drops its caller's ctx.
func (d *dropper) viaCallee(fn *ssa.Function) *drop {
	for _, f := range withLiterals(fn) {
		for _, b := range f.Blocks {
			for _, instr := range b.Instrs {
				call, ok := instr.(ssa.CallInstruction)
				if !ok || !onBehalf(call) {
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

// calleeDrop returns a target of a call that drops its caller's ctx, with its display name.
// An interface call drops only when every implementation it can reach drops — the service's
// own client adapters aside: one implementation that passes the ctx on means the handler's
// call may well keep its deadline.
func (d *dropper) calleeDrop(common *ssa.CallCommon) (string, *drop) {
	targets := d.targets.Targets(common)
	if common.IsInvoke() {
		var name string
		var first *drop
		for _, t := range targets {
			if isClientAdapter(t) {
				continue
			}
			dr := d.targetDrop(t)
			switch {
			case dr != nil && first == nil:
				name, first = targetName(t), dr
			case dr == nil && !d.ignoresCtx(t):
				return "", nil // it may pass the caller's ctx on
			}
		}
		return name, first
	}
	for _, t := range targets {
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

// checkScopes reports, once per handler and root, the first call in source order through
// which a request scope loses its ctx to a root context: a call of a function that drops the
// ctx it is given, or of a function returning a root context that the scope then works with.
func (d *dropper) checkScopes(report func(analysis.Diagnostic)) {
	var cands []candidate
	for _, fn := range d.info.Funcs {
		if sc := d.info.Scopes.Of(fn); sc != nil {
			cands = append(cands, d.returnedRoots(sc, fn)...)
			cands = append(cands, d.droppingCalls(sc, fn)...)
		}
	}
	sort.SliceStable(cands, func(i, j int) bool { return cands[i].diag.Pos < cands[j].diag.Pos })
	seen := make(map[string]bool)
	for _, c := range cands {
		if !seen[c.key] {
			seen[c.key] = true
			report(c.diag)
		}
	}
}

// A candidate is a finding of checkScopes, with the handler and root it is about.
type candidate struct {
	key  string
	diag analysis.Diagnostic
}

func rootKey(sc *scope.Scope, root string) string { return fmt.Sprint(sc.Handler().Func, " ", root) }

// returnedRoots returns the findings for the calls in fn, a request scope, of functions that
// return a root context fn then hands to ctx-taking work: one per call and root, with the work
// it reaches as related positions. A root created in the scope itself is reported where it is
// created.
func (d *dropper) returnedRoots(sc *scope.Scope, fn *ssa.Function) []candidate {
	type site struct {
		via  *ssa.Call
		root string
	}
	index := make(map[site]int)
	var out []candidate
	for _, s := range ctxorigin.Sinks(fn) {
		if _, deferred := s.Instr.(*ssa.Defer); deferred {
			continue // cleanup
		}
		for _, o := range d.info.Origins.Of(s.Ctx) {
			if o.Kind != ctxorigin.Root || o.Via == nil || boundedRoot(o) && inDeferred(fn) || o.Call != nil && ctxorigin.ReplacesNoCtx(o.Call) {
				continue
			}
			dr := d.rootDrop(o)
			at := site{o.Via, dr.fact.Root}
			i, ok := index[at]
			if !ok {
				i = len(out)
				index[at] = i
				out = append(out, candidate{rootKey(sc, dr.fact.Root), d.returnedRoot(sc, o.Via, dr)})
			}
			spos, _ := d.res.CallRange(s.Instr)
			out[i].diag.Related = append(out[i].diag.Related, analysis.RelatedInformation{Pos: spos, Message: "reaches " + report.FuncName(s.Func)})
		}
	}
	return out
}

// droppingCalls returns the findings for the calls in fn, a request scope, of functions that
// drop the ctx they are given.
func (d *dropper) droppingCalls(sc *scope.Scope, fn *ssa.Function) []candidate {
	var out []candidate
	for _, b := range fn.Blocks {
		for _, instr := range b.Instrs {
			call, ok := instr.(ssa.CallInstruction)
			if _, deferred := instr.(*ssa.Defer); !ok || deferred {
				continue // a deferred call is cleanup: it runs as the handler returns
			}
			if name, dr := d.calleeDrop(call.Common()); dr != nil {
				out = append(out, candidate{rootKey(sc, dr.fact.Root), d.diagnostic(sc, call, name, dr)})
			}
		}
	}
	return out
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

// returnedRoot is the finding for via, a call in scope sc of a function that returns a root
// context (dr) instead of a ctx derived from the caller's.
func (d *dropper) returnedRoot(sc *scope.Scope, via *ssa.Call, dr *drop) analysis.Diagnostic {
	pos, end := d.res.CallRange(via)
	spelled, _ := reqctx.Expr(d.pass, sc, pos)
	diag := analysis.Diagnostic{
		Pos: pos, End: end,
		Message: fmt.Sprintf("%s, called in %s, returns a ctx made from %s instead of one derived from the caller's: the calls made with it ignore the caller's deadline and cancellation; derive it from %s",
			calleeLabel(via), reqctx.Where(sc), dr.fact.Root, spelled),
	}
	if dr.rootPos.IsValid() {
		diag.Related = []analysis.RelatedInformation{{Pos: dr.rootPos, Message: "the root context is created here"}}
	}
	return diag
}

// calleeLabel names the function a call invokes, for messages: "telemetry.StartLinked".
func calleeLabel(call *ssa.Call) string {
	if fn := ctxorigin.Callee(call.Common()); fn != nil {
		return targetName(callees.Target{Obj: fn})
	}
	return "a function value"
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

// withLiterals returns fn and the function literals that run as part of a call to it,
// transitively: literals it calls or passes to a call (a callback such as errgroup's Go). A
// literal stored for later (a field, a return value) does not run then, one started on a
// goroutine has a lifetime of its own, and a deferred one is cleanup: they are left out.
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
		switch ref.(type) {
		case *ssa.Go, *ssa.Defer:
		case ssa.CallInstruction:
			return true
		}
	}
	return false
}
