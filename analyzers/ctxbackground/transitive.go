package ctxbackground

import (
	"fmt"
	"go/token"
	"go/types"
	"slices"
	"sort"
	"strconv"
	"strings"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/ssa"

	"github.com/deadlinelint/deadlinelint/internal/callees"
	"github.com/deadlinelint/deadlinelint/internal/ctxorigin"
	"github.com/deadlinelint/deadlinelint/internal/ctxssa"
	"github.com/deadlinelint/deadlinelint/internal/report"
	"github.com/deadlinelint/deadlinelint/internal/reqctx"
	"github.com/deadlinelint/deadlinelint/internal/scope"
	"github.com/deadlinelint/deadlinelint/internal/typesutil"
	"github.com/deadlinelint/deadlinelint/internal/valueflow"
)

// dropsCtx is the fact exported for a function that, called from anywhere, runs ctx-taking
// work with a root context of its own instead of its caller's ctx.
type dropsCtx struct {
	Roots []RootUse // every root it runs work with, in the order found
}

// A RootUse is one root context a function's work runs with.
type RootUse struct {
	Root string // the root context, as "context.Background() at /path/file.go:12"
	Col  int    // the column of the root's call on that line, 0 if not known
	Via  string // the chain of calls leading to it from the function, "" if it is there
	// Needs are the values of the function's bool parameters under which the work is reached
	// (if !ensureInit { return nil } … load()): a call passing another constant for one of
	// them does not reach it. None: on any call.
	Needs []Need
}

// A Need is a value a bool parameter must have (ctxorigin.ParamValue): Param indexes the SSA
// parameters (the receiver of a method first), as it does a static call's arguments.
type Need = ctxorigin.ParamValue

func (u RootUse) String() string {
	s := u.Root
	if u.Via != "" {
		s = u.Via + ": " + s
	}
	for _, n := range u.Needs {
		switch {
		case n.Const == "":
			s += fmt.Sprintf(" if param %d is %t", n.Param, n.Value)
		case n.Value:
			s += fmt.Sprintf(" if param %d is %s", n.Param, n.Const)
		default:
			s += fmt.Sprintf(" if param %d is not %s", n.Param, n.Const)
		}
	}
	return s
}

// AFact marks dropsCtx as an analysis fact.
func (*dropsCtx) AFact() {}

func (f *dropsCtx) String() string {
	var parts []string
	for _, r := range f.Roots {
		parts = append(parts, r.String())
	}
	return "drops ctx: " + strings.Join(parts, "; ")
}

// returnsDrop is the fact exported for a function that returns a function value which, when
// called, runs ctx-taking work with a root of its own: an iterator (idx.All() loading every row
// on context.Background()), a wrapper (guard.Detached(fn, d) running fn under a fresh budget).
type returnsDrop struct {
	Results []ResultDrop
}

// A ResultDrop is what the function value returned as result Index drops.
type ResultDrop struct {
	Index int
	Roots []RootUse
}

// AFact marks returnsDrop as an analysis fact.
func (*returnsDrop) AFact() {}

func (f *returnsDrop) String() string {
	var parts []string
	for _, r := range f.Results {
		parts = append(parts, fmt.Sprintf("result %d %s", r.Index, (&dropsCtx{Roots: r.Roots}).String()))
	}
	return "returns a function that " + strings.Join(parts, "; ")
}

// A root is a RootUse as the package knows it: for a root created in this package, where.
type root struct {
	RootUse
	pos token.Pos // valid when the root is in this package
}

// drop is what the package learned about one function: the roots its work runs with.
type drop struct {
	roots []root
}

func (dr *drop) fact() *dropsCtx {
	f := &dropsCtx{}
	for _, r := range dr.roots {
		f.Roots = append(f.Roots, r.RootUse)
	}
	return f
}

// addVia adds the roots of a callee's drop, reached through the callee called name, under the
// caller's needs (the branch of its own bool parameters the call is in).
func (dr *drop) addVia(name string, cd *drop, needs []Need) {
	for _, r := range cd.roots {
		via := name
		if r.Via != "" {
			via += " → " + r.Via
		}
		dr.add(root{RootUse{Root: r.Root, Col: r.Col, Via: via, Needs: append(slices.Clip(needs), r.Needs...)}, r.pos})
	}
}

// add appends r unless a root of the same name is there already.
func (dr *drop) add(r root) { dr.roots = addRoot(dr.roots, r) }

// addRoot returns roots with r appended, unless a root of the same name is there already; then
// that root is reached under the needs both share (none, when they differ).
func addRoot(roots []root, r root) []root {
	for i, have := range roots {
		if have.Root == r.Root {
			if !slices.Equal(have.Needs, r.Needs) {
				roots[i].Needs = nil
			}
			return roots
		}
	}
	return append(roots, r)
}

// reachedBy returns the roots of dr a call in caller with arguments args (indexed as the
// callee's parameters, receiver first; none for a call they cannot index) reaches: those
// whose needs no constant argument contradicts. A call passing false for the ensureInit a load
// needs does not reach the load's root; one passing its own bool parameter on reaches it under
// the same need of that parameter; any other argument, on any call.
func (dr *drop) reachedBy(args []ssa.Value, caller *ssa.Function) *drop {
	out := new(drop)
	for _, r := range dr.roots {
		if ctxorigin.Contradicted(r.Needs, args) {
			continue
		}
		var needs []Need
		for _, n := range r.Needs {
			if n.Param < len(args) {
				if p, ok := args[n.Param].(*ssa.Parameter); ok && p.Parent() == caller {
					needs = append(needs, Need{Param: slices.Index(caller.Params, p), Value: n.Value, Const: n.Const})
				}
			}
		}
		r.Needs = needs
		out.add(r)
	}
	if len(out.roots) == 0 {
		return nil
	}
	return out
}

// isWrapper reports whether fn is a synthetic wrapper (a bound method value, a thunk, a
// promoted method's wrapper), whose parameters are not those of the function it calls.
func isWrapper(fn *ssa.Function) bool {
	return strings.Contains(fn.Synthetic, "wrapper") || strings.HasPrefix(fn.Synthetic, "thunk")
}

// dropper summarises the functions of one package and checks its request scopes' calls.
type dropper struct {
	pass       *analysis.Pass
	res        *ctxssa.Result
	info       *ctxssa.Info
	targets    *callees.Resolver
	suppressed func(token.Pos) bool
	files      *fileIndex
	memo       map[*ssa.Function]*drop
	active     map[*ssa.Function]bool
	live       map[*ssa.Function]map[*ssa.BasicBlock]bool // ctxorigin.LiveBlocks, by function
	served     []*types.Interface                         // the services the package serves, asked on first need
	servedSet  bool                                       // served has been asked (it is nil for most packages)
}

// newDropper returns a dropper. suppressed reports whether a root created at a position is
// suppressed there (//deadlinelint:ignore ctxbackground <reason>): a root suppressed where it
// is made drops nothing for anyone, in this package or (through the facts) any other.
func newDropper(pass *analysis.Pass, res *ctxssa.Result, info *ctxssa.Info, suppressed func(token.Pos) bool) *dropper {
	return &dropper{
		pass: pass, res: res, info: info, suppressed: suppressed,
		targets: res.NewCallees(),
		files:   &fileIndex{fset: pass.Fset},
		memo:    make(map[*ssa.Function]*drop),
		active:  make(map[*ssa.Function]bool),
		live:    make(map[*ssa.Function]map[*ssa.BasicBlock]bool),
	}
}

// runs reports whether instr can run: its block is reached from its function's entry, a branch
// on a constant (if false, a false const), or on errors.As (or a wrapper of it) asked of an error
// whose dynamic type is known to be the target's, taking only the way its value goes.
func (d *dropper) runs(instr ssa.Instruction) bool {
	fn := instr.Parent()
	live, ok := d.live[fn]
	if !ok {
		live = ctxorigin.LiveBlocks(fn, d.res.ErrorsAs)
		d.live[fn] = live
	}
	return live[instr.Block()]
}

// exportFacts exports a dropsCtx fact for every declared function of the package that drops
// its callers' ctx. Request scopes are reported directly and export no dropsCtx.
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
			d.pass.ExportObjectFact(obj, dr.fact())
		}
		if f := d.returnsDrop(fn); f != nil && obj.Exported() {
			d.pass.ExportObjectFact(obj, f)
		}
		if f := d.fieldRootsOf(fn); f != nil && obj.Exported() {
			d.pass.ExportObjectFact(obj, f)
		}
	}
}

// fieldRoots is the fact of a method that runs func-typed fields of its receiver with a root of
// its own (cache.Cache.Warm: ctx, cancel := context.WithTimeout(context.Background(), d) …
// c.load(ctx, k)). What the field holds is out of the method's sight; a caller that knows — it
// handed the function to the constructor (callees.Resolver.FieldCallbacks) — knows whether work
// runs with that root.
type fieldRoots struct {
	Fields []string
	Roots  [][]RootUse // per field, the roots it is run with
}

// AFact marks fieldRoots as an analysis fact.
func (*fieldRoots) AFact() {}

func (f *fieldRoots) String() string { return fmt.Sprintf("runs fields %v with roots", f.Fields) }

// fieldRootsOf returns the fact of fn, a method, when its own body runs a func-typed field of its
// receiver, on its behalf, with a root; or nil.
func (d *dropper) fieldRootsOf(fn *ssa.Function) *fieldRoots {
	if fn.Signature.Recv() == nil || len(fn.Params) == 0 {
		return nil
	}
	byField := make(map[string]*drop)
	var fields []string
	for _, s := range ctxorigin.Sinks(fn) {
		if s.Instr.Common().IsInvoke() {
			continue // a method of an interface-typed field: Implementations, not a func value
		}
		field := callees.ReceiverField(s.Instr.Common().Value, fn.Params[0])
		if field == "" || !onBehalf(s.Instr) {
			continue
		}
		for _, o := range d.info.Origins.Of(s.Ctx) {
			if o.Kind != ctxorigin.Root || o.Call != nil && replacesNothing(o.Call) {
				continue
			}
			if r, ok := d.rootOf(o); ok {
				if byField[field] == nil {
					byField[field] = new(drop)
					fields = append(fields, field)
				}
				byField[field].add(r)
			}
		}
	}
	if len(fields) == 0 {
		return nil
	}
	f := &fieldRoots{Fields: fields}
	for _, field := range fields {
		f.Roots = append(f.Roots, byField[field].fact().Roots)
	}
	return f
}

// fieldRootDrop returns, for a call of a method of another package that runs fields of its
// receiver with a root of its own (its fieldRoots fact), the roots that work runs with: when
// the functions the fields hold are known (callees.Resolver.FieldCallbacks) and every one of
// them works with the ctx it is given.
func (d *dropper) fieldRootDrop(common *ssa.CallCommon) *drop {
	obj := d.targets.ImportedCallee(common)
	var f fieldRoots
	if obj == nil || !d.pass.ImportObjectFact(obj, &f) {
		return nil
	}
	var out *drop
	for k, field := range f.Fields {
		ts := d.targets.FieldCallbacks(common, []string{field})
		if len(ts) == 0 || k >= len(f.Roots) {
			continue
		}
		works := true
		for _, t := range ts {
			works = works && !d.ignoresCtx(t)
		}
		if !works {
			continue
		}
		if out == nil {
			out = new(drop)
		}
		for _, u := range f.Roots[k] {
			out.add(root{RootUse: u})
		}
	}
	return out
}

// dropsIn returns how fn (with the literals it creates) drops its caller's ctx, or nil: every
// root its work runs with, its own and its callees', so that a benign first root does not
// hide a second one.
func (d *dropper) dropsIn(fn *ssa.Function) *drop {
	if dr, ok := d.memo[fn]; ok {
		return dr
	}
	if d.active[fn] || d.info.Scopes.Of(fn) != nil {
		return nil
	}
	d.active[fn] = true
	dr := new(drop)
	d.ownRoots(fn, dr)
	d.viaCallees(fn, dr)
	if len(dr.roots) == 0 {
		dr = nil
	}
	delete(d.active, fn)
	d.memo[fn] = dr
	return dr
}

// ownRoots adds the root contexts that reach a sink of fn, run on behalf of fn's caller, and
// replace a caller's ctx (not ctxorigin.ReplacesNoCtx): created in fn, or returned to it by a
// function it calls. A fresh budget (WithTimeout(Background(), d)) replaces the caller's too.
func (d *dropper) ownRoots(fn *ssa.Function, dr *drop) {
	for _, f := range d.withLiterals(fn) {
		for _, s := range ctxorigin.Sinks(f) {
			if !onBehalf(s.Instr) || !d.runs(s.Instr) || dynamic(s.Instr) || s.Func != nil && d.res.CallIgnoresCtx(s.Instr.Common()) || d.res.DialsOnly(s.Func) || d.startsOnly(s) {
				continue // not work: a callee that does nothing with the ctx (a span, a log line) loses nothing, a dial's conn outlives the request, a goroutine it starts has a lifetime of its own
			}
			if s.Func != nil && d.res.CallInitializesOnly(s.Instr.Common()) {
				continue // work only on the first use of shared state it keeps (an ID read once): initialisation for every later caller
			}
			if ctxorigin.IdleCtx(s) {
				continue // an object's idle ctx (reset after its work, or a new object's first): the ctx set before its next work decides
			}
			rpc := typesutil.IsUnaryRPC(s.Func)
			for _, o := range d.info.Origins.Of(s.Ctx) {
				if o.Kind != ctxorigin.Root || o.Call != nil && replacesNothing(o.Call) {
					continue
				}
				if boundedRoot(o) && o.Call != nil && d.usesOwnCtxBeside(o.Call.Parent(), o.Call, s.Ctx) {
					continue // a fresh budget chosen beside the caller's ctx: a rollback, a fallback
				}
				if rpc && !boundedRoot(o) && o.Call != nil && !d.convenience(s, o.Call) {
					continue // a root an RPC outside a request scope waits on forever is missingdeadline's: one root, one rule
				}
				if r, ok := d.rootOf(o); ok {
					r.Needs = ctxorigin.ParamValuesAt(fn, s.Instr)
					dr.add(r)
				}
			}
		}
	}
}

// convenience reports whether the sink s, given the root made by root, is a library's
// convenience API (ctxorigin.ConvenienceCall): missingdeadline leaves it to the API's callers,
// so a request scope calling it is this rule's to report.
func (d *dropper) convenience(s ctxorigin.Sink, root *ssa.Call) bool {
	if _, api := ctxorigin.NoCtxAPI(s.Instr.Parent()); !api {
		return false
	}
	pos, end := d.res.CallRange(s.Instr)
	return ctxorigin.ConvenienceCall(s.Instr, pos, end, root)
}

// rootOf is the root of a root context origin o; ok is false when it is suppressed where it
// is created.
func (d *dropper) rootOf(o ctxorigin.Origin) (r root, ok bool) {
	r.Root = o.Desc
	if o.Call != nil {
		if d.suppressed(o.Call.Pos()) {
			return root{}, false
		}
		r.Root, r.pos = ctxorigin.Describe(o.Call), o.Call.Pos()
		if start, _ := d.res.CallRange(o.Call); start.IsValid() {
			r.pos = start // where the call is written, not its parenthesis
		}
		r.Col = d.pass.Fset.Position(r.pos).Column
	}
	if o.Via != nil {
		r.Via = calleeLabel(o.Via)
	}
	return r, true
}

// viaCallees adds the roots of the functions fn calls that drop their caller's ctx.
func (d *dropper) viaCallees(fn *ssa.Function, dr *drop) {
	for _, f := range d.withLiterals(fn) {
		for _, b := range f.Blocks {
			for _, instr := range b.Instrs {
				call, ok := instr.(ssa.CallInstruction)
				if !ok || !onBehalf(call) || !d.runs(call) {
					continue
				}
				needs := ctxorigin.ParamValuesAt(fn, call)
				if name, cd := d.calleeDrop(call); cd != nil {
					dr.addVia(name, cd, needs)
				}
				if name, cd := d.callbackDrop(call.Common()); cd != nil {
					dr.addVia(name, cd, needs)
				}
			}
		}
	}
}

// callbackDrop returns what the declared functions and method values a call hands its callee,
// which the callee runs (callees.Resolver.Callbacks), drop of the caller's ctx, with the display
// name of the first that drops. Literals are left out: one in a helper is among withLiterals,
// one in a request scope is a request scope, checked itself.
func (d *dropper) callbackDrop(common *ssa.CallCommon) (string, *drop) {
	var name string
	var out *drop
	for _, t := range d.targets.Callbacks(common) {
		if t.Obj == nil {
			continue
		}
		if cd := d.targetDrop(t); cd != nil {
			if out == nil {
				name, out = targetName(t), new(drop)
			}
			for _, r := range cd.roots {
				r.Needs = nil // the callback's parameters, not the call's arguments: reached on any call
				out.add(r)
			}
		}
	}
	return name, out
}

// calleeDrop returns what a call drops of its caller's ctx, with the display name of the
// (first) target that drops it. An interface call drops only when every implementation it can
// reach drops (every method of the values its receiver may hold, when all are in sight) — the
// service's own client adapters aside: one implementation that passes the ctx on means the
// handler's call may well keep its deadline.
func (d *dropper) calleeDrop(call ssa.CallInstruction) (string, *drop) {
	if d.res.TwinLeft(call) {
		return "", nil // in a helper handed the request's ctx, a ctx-less call of a method with a ctx-taking variant: ctxless's, at that call (one decision, one rule)
	}
	common := call.Common()
	// The arguments as the callee's parameters, receiver first: a static call's (a wrapper's
	// do not index them), or an interface call's after its receiver, which is no constant —
	// each implementation's bool parameter is the same argument. A target reaches, on this
	// call, only the roots no constant argument excludes; it is named only if it reaches one.
	var args []ssa.Value
	if callee := common.StaticCallee(); callee != nil && !isWrapper(callee) {
		args = common.Args
	} else if common.IsInvoke() {
		args = append([]ssa.Value{nil}, common.Args...)
	}
	var name string
	var out *drop
	for _, t := range d.targets.Invoked(common) {
		if common.IsInvoke() && d.isClientAdapter(t) {
			continue
		}
		dr := d.targetDrop(t)
		if dr == nil {
			if common.IsInvoke() && !d.ignoresCtx(t) {
				return "", nil // it may pass the caller's ctx on
			}
			continue
		}
		if dr = dr.reachedBy(args, call.Parent()); dr == nil {
			continue // its roots are on branches this call's constants exclude
		}
		if out == nil {
			name, out = targetName(t), new(drop)
		}
		for _, r := range dr.roots {
			out.add(r)
		}
	}
	if fd := d.fieldRootDrop(common); fd != nil {
		if fd = fd.reachedBy(args, call.Parent()); fd != nil {
			if out == nil {
				name, out = targetName(callees.Target{Obj: d.targets.ImportedCallee(common)}), new(drop)
			}
			for _, r := range fd.roots {
				out.add(r)
			}
		}
	}
	return name, out
}

// returnsDrop returns the fact of fn when a function value it returns drops its caller's ctx,
// or nil.
func (d *dropper) returnsDrop(fn *ssa.Function) *returnsDrop {
	results := fn.Signature.Results()
	var f returnsDrop
	for i := 0; i < results.Len(); i++ {
		if _, isFunc := results.At(i).Type().Underlying().(*types.Signature); !isFunc {
			continue
		}
		var roots []RootUse
		for _, v := range valueflow.Returned(fn, i) {
			for _, t := range d.targets.Values(v) {
				if dr := d.targetDrop(t); dr != nil {
					for _, r := range dr.roots {
						roots = append(roots, r.RootUse)
					}
				}
			}
		}
		if len(roots) > 0 {
			f.Results = append(f.Results, ResultDrop{Index: i, Roots: roots})
		}
	}
	if len(f.Results) == 0 {
		return nil
	}
	return &f
}

func (d *dropper) targetDrop(t callees.Target) *drop {
	if t.Fn != nil {
		return d.dropsIn(t.Fn)
	}
	if t.From != nil {
		var fact returnsDrop
		if !d.pass.ImportObjectFact(t.From, &fact) {
			return nil
		}
		for _, r := range fact.Results {
			if r.Index == t.Result {
				dr := new(drop)
				for _, u := range r.Roots {
					dr.add(root{RootUse: u})
				}
				return dr
			}
		}
		return nil
	}
	var fact dropsCtx
	if t.Obj == nil || !d.pass.ImportObjectFact(t.Obj, &fact) {
		return nil
	}
	dr := new(drop)
	for _, r := range fact.Roots {
		dr.add(root{RootUse: r})
	}
	return dr
}

// checkScopes reports the calls in request scopes through which the request's ctx is lost to
// a root context: a call of a function that drops the ctx it is given, or of a function
// returning a root context that the scope then works with. A root is one decision, reported
// once in the package: at the first call in source order that reaches it, with the other calls
// that reach it (from any handler) as related positions.
func (d *dropper) checkScopes(emit func(analysis.Diagnostic)) {
	var cands []*candidate
	for _, fn := range d.info.Funcs {
		if sc := d.info.Scopes.Of(fn); sc != nil {
			cands = append(cands, d.returnedRoots(sc, fn)...)
			if !ctxorigin.InDeferred(fn) { // cleanup as the handler returns: releasing a lock, a deferred delete
				cands = append(cands, d.droppingCalls(sc, fn)...)
			}
		}
	}
	sort.SliceStable(cands, func(i, j int) bool { return report.Before(d.pass.Fset, cands[i].pos, cands[j].pos) })
	owner := make(map[string]*analysis.Diagnostic) // root → the finding that reports it
	var out []*analysis.Diagnostic
	for i, c := range cands {
		if i > 0 && cands[i-1].pos == c.pos {
			continue // the same call, found both ways: reported once
		}
		var fresh []root
		for _, r := range c.roots {
			if owner[r.Root] == nil {
				fresh = append(fresh, r)
			}
		}
		also := analysis.RelatedInformation{Pos: c.pos, Message: "also reached from " + reqctx.Where(c.sc)}
		for _, r := range c.roots {
			if f := owner[r.Root]; f != nil && !hasRelated(f, c.pos) {
				f.Related = append(f.Related, also)
			}
		}
		if len(fresh) == 0 {
			continue
		}
		diag := c.diagnostic(d, fresh)
		for _, r := range fresh {
			owner[r.Root] = &diag
		}
		out = append(out, &diag)
	}
	for _, diag := range out {
		emit(*diag)
	}
}

func hasRelated(d *analysis.Diagnostic, pos token.Pos) bool {
	for _, r := range d.Related {
		if r.Pos == pos {
			return true
		}
	}
	return false
}

// A candidate is a call in a request scope through which the scope's ctx is lost: of a
// function that drops the ctx it is given (name), or of one that returns a root context (via).
type candidate struct {
	sc       *scope.Scope
	pos, end token.Pos
	name     string    // the function called, which drops the ctx it is given
	via      *ssa.Call // or the call returning a root context
	roots    []root
	reaches  []analysis.RelatedInformation // for via: the work done with the root
}

// returnedRoots returns the candidates for the calls in fn, a request scope, of functions that
// return a root context fn then hands to ctx-taking work, with the work it reaches. A root
// created in the scope itself is reported where it is created.
func (d *dropper) returnedRoots(sc *scope.Scope, fn *ssa.Function) []*candidate {
	byVia := make(map[*ssa.Call]*candidate)
	var out []*candidate
	for _, s := range ctxorigin.Sinks(fn) {
		if _, deferred := s.Instr.(*ssa.Defer); deferred {
			continue // cleanup
		}
		for _, o := range d.info.Origins.Of(s.Ctx) {
			if o.Kind != ctxorigin.Root || o.Via == nil || boundedRoot(o) && ctxorigin.InDeferred(fn) || o.Call != nil && replacesNothing(o.Call) {
				continue
			}
			r, ok := d.rootOf(o)
			if !ok {
				continue
			}
			c := byVia[o.Via]
			if c == nil {
				pos, end := d.res.CallRange(o.Via)
				c = &candidate{sc: sc, pos: pos, end: end, via: o.Via}
				byVia[o.Via] = c
				out = append(out, c)
			}
			r.Via = ""
			c.roots = addRoot(c.roots, r)
			spos, _ := d.res.CallRange(s.Instr)
			c.reaches = append(c.reaches, analysis.RelatedInformation{Pos: spos, Message: "reaches " + report.FuncName(s.Func)})
		}
	}
	return out
}

// droppingCalls returns the candidates for the calls in fn, a request scope, of functions that
// drop the ctx they are given.
func (d *dropper) droppingCalls(sc *scope.Scope, fn *ssa.Function) []*candidate {
	var out []*candidate
	for _, b := range fn.Blocks {
		for _, instr := range b.Instrs {
			call, ok := instr.(ssa.CallInstruction)
			if _, deferred := instr.(*ssa.Defer); !ok || deferred {
				continue // a deferred call is cleanup: it runs as the handler returns
			}
			if ctxorigin.FirstUseOfServer(call) {
				continue // only on the first use of shared state the handler then sets: kept for every later request
			}
			if ctxorigin.OnFailure(call) {
				continue // on the way out of a failure the handler returns: cleanup after it, as in a helper (onBehalf)
			}
			name, dr := d.calleeDrop(call)
			if cbName, cd := d.callbackDrop(call.Common()); cd != nil {
				if dr == nil {
					name, dr = cbName, new(drop)
				}
				for _, r := range cd.roots {
					dr.add(r)
				}
			}
			if dr != nil {
				pos, end := d.res.CallRange(call)
				out = append(out, &candidate{sc: sc, pos: pos, end: end, name: name, roots: dr.roots})
			}
		}
	}
	return out
}

// diagnostic is the finding for c, about the roots it is the first to reach. The message says
// what is lost and what to do; where each root is made, and the calls down to it, are related
// positions.
func (c *candidate) diagnostic(d *dropper, roots []root) analysis.Diagnostic {
	spelled, _ := reqctx.Expr(d.pass, c.sc, c.pos)
	diag := analysis.Diagnostic{Pos: c.pos, End: c.end}
	if c.via != nil {
		diag.Message = fmt.Sprintf("%s, called in %s, returns a ctx from %s, not the caller's; derive it from %s",
			calleeLabel(c.via), reqctx.Where(c.sc), rootNames(roots), spelled)
	} else {
		diag.Message = fmt.Sprintf("%s, called in %s, works with %s; pass %s down",
			c.name, reqctx.Where(c.sc), rootNames(roots), spelled)
	}
	for _, r := range roots {
		diag.Related = append(diag.Related, d.rootRelated(c, r))
	}
	diag.Related = append(diag.Related, c.reaches...)
	return diag
}

// rootNames spells the roots for a message, each once: "context.Background() and
// context.TODO()".
func rootNames(roots []root) string {
	var names []string
	for _, r := range roots {
		name, _, _ := strings.Cut(r.Root, " at ")
		if !slices.Contains(names, name) {
			names = append(names, name)
		}
	}
	if len(names) <= 2 {
		return strings.Join(names, " and ")
	}
	return strings.Join(names[:len(names)-1], ", ") + " and " + names[len(names)-1]
}

// rootRelated is the related position of root r of candidate c: where it is made — in this
// package, or in another whose file the pass can see — with the calls down to it. A root out of
// sight is named, path and line, at the call that reaches it.
func (d *dropper) rootRelated(c *candidate, r root) analysis.RelatedInformation {
	name, where, _ := strings.Cut(r.Root, " at ")
	through := ""
	if r.Via != "" {
		through = " (through " + r.Via + ")"
	}
	if pos := r.pos; pos.IsValid() {
		return analysis.RelatedInformation{Pos: pos, Message: name + " is created here" + through}
	}
	if pos := d.files.position(where, r.Col); pos.IsValid() {
		return analysis.RelatedInformation{Pos: pos, Message: name + " is created here" + through}
	}
	return analysis.RelatedInformation{Pos: c.pos, Message: "works with " + r.Root + through}
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
	case t.From != nil:
		return "the function " + targetName(callees.Target{Obj: t.From}) + " returns"
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
func (d *dropper) withLiterals(fn *ssa.Function) []*ssa.Function {
	out := []*ssa.Function{fn}
	for i := 0; i < len(out); i++ {
		for _, anon := range out[i].AnonFuncs {
			if d.runsNow(anon) {
				out = append(out, anon)
			}
		}
	}
	return out
}

// runsNow reports whether the function literal anon is called by the function that creates
// it, or handed to a call that runs it (callees.Resolver.RunsHere): a literal given to a
// function of the package that only stores it (a handler registered for later) does not run.
func (d *dropper) runsNow(anon *ssa.Function) bool { return d.targets.RunsHere(literalValue(anon)) }

// literalValue returns the value that stands for the function literal anon where it is made:
// its MakeClosure, or anon itself when it captures nothing.
func literalValue(anon *ssa.Function) ssa.Value {
	if refs := anon.Referrers(); refs != nil {
		for _, ref := range *refs {
			if mc, ok := ref.(*ssa.MakeClosure); ok {
				return mc
			}
		}
	}
	return anon
}

// A fileIndex finds a "path:line" written by another package's fact in the pass's file set:
// every file of a package analysed from source, and the files of imported packages as far as
// their export data records them.
type fileIndex struct {
	fset   *token.FileSet
	byName map[string]*token.File
}

// position returns the position of column col (1-based; 0 if not known) of the line "path:line"
// names — its start when col is not on the line — or NoPos.
func (x *fileIndex) position(where string, col int) token.Pos {
	i := strings.LastIndex(where, ":")
	if i < 0 {
		return token.NoPos
	}
	line, err := strconv.Atoi(where[i+1:])
	if err != nil {
		return token.NoPos
	}
	if x.byName == nil {
		x.byName = make(map[string]*token.File)
		x.fset.Iterate(func(f *token.File) bool {
			x.byName[f.Name()] = f
			return true
		})
	}
	name := where[:i]
	f := x.byName[name]
	if line < 1 {
		return token.NoPos
	}
	if pos, ok := onLine(f, line, col); ok {
		return pos
	}
	// Not parsed here, or known only as far as export data records it (go vet analyses one
	// package at a time: lines without columns): add the file as it is on disk, for its
	// positions only.
	if disk, _ := report.FileFromDisk(x.fset, name); disk != nil {
		if pos, ok := onLine(disk, line, col); ok {
			return pos
		}
	}
	if f != nil && line <= f.LineCount() {
		return f.LineStart(line)
	}
	return token.NoPos
}

// onLine returns the position of column col of line in f, and whether f holds it: the line,
// and the column on it when col is not 0.
func onLine(f *token.File, line, col int) (token.Pos, bool) {
	if f == nil || line > f.LineCount() {
		return token.NoPos, false
	}
	start, end := report.LineOffsets(f, line)
	switch {
	case col == 0:
		return f.Pos(start), true
	case start+col-1 < end:
		return f.Pos(start + col - 1), true
	}
	return token.NoPos, false
}

// replacesNothing reports whether the root made by call stands in for no caller's ctx
// (ctxorigin.ReplacesNoCtx: a nil fallback, a one-time initialisation, an object's lifetime) or
// for one already done (ctxorigin.AfterDone: `if ctx.Err() == context.Canceled { ctx, cancel =
// context.WithTimeout(context.Background(), d) }`, an audit write that must outlive a cancelled
// request): the caller's deadline is gone by then, and the root loses nothing of it.
func replacesNothing(call *ssa.Call) bool {
	return ctxorigin.ReplacesNoCtx(call) || ctxorigin.AfterDone(call)
}
