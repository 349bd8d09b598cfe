// Package ctxssa is the analysis every deadlinelint rule requires: it decides, before any SSA
// work, whether a package can hold a lost deadline at all, and builds — once, lazily, for all
// rules — the package's SSA form, its request scopes and the ctx-origin resolver.
//
// It deliberately does not require buildssa: buildssa requires ctrlflow, which computes facts
// for every package, and builds SSA for every package analysed, relevant or not.
package ctxssa

import (
	"fmt"
	"go/ast"
	"go/build"
	"go/token"
	"go/types"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"sync"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/ssa"
	"golang.org/x/tools/go/types/typeutil"

	"github.com/deadlinelint/deadlinelint/internal/callees"
	"github.com/deadlinelint/deadlinelint/internal/ctxorigin"
	"github.com/deadlinelint/deadlinelint/internal/directive"
	"github.com/deadlinelint/deadlinelint/internal/scope"
	"github.com/deadlinelint/deadlinelint/internal/typesutil"
	"github.com/deadlinelint/deadlinelint/internal/valueflow"
)

// Analyzer computes a *Result for every package. Its fact, ctxorigin.Returned, summarises the
// exported functions of the user's code that return a ctx, so that the origin of a ctx a
// function of another package returned is known (a root, or a child of an argument).
var Analyzer = &analysis.Analyzer{
	Name:       "ctxssa",
	Doc:        "build SSA, request scopes and ctx origins for deadlinelint's rules",
	Run:        run,
	ResultType: reflect.TypeFor[*Result](),
	FactTypes:  []analysis.Fact{new(ctxorigin.Returned), new(externalPkg), new(ignoresCtx), new(runsParams), new(summarised), new(runsFields), new(storesParams), new(readsParams), new(startsCtx), new(dialsOnly), new(initsOnly), new(unusedParams), new(wrapsParams), new(watchesParams), new(wrapsAs)},
}

// runsParams is the fact of a function or method that runs some of its func-typed
// parameters as part of a call to it (callees.Resolver.RunsParam): a callback runner such as
// batch.Each(ctx, ids, fn). Params are indices among the SSA parameters, receiver first.
type runsParams struct {
	Params []int
	// Ctx is, for each of Params, the index of the parameter whose ctx the function passes to
	// every call of that callback, unchanged (batch.Each(ctx, ids, fn) calling fn(ctx, id)),
	// or -1.
	Ctx []int
	// Wait is, for each of Params, the index of a time.Duration parameter that gives that ctx
	// a deadline when it is positive (if wait > 0 { ctx, cancel = context.WithTimeout(ctx,
	// wait) }), or -1.
	Wait []int
}

// AFact marks runsParams as an analysis fact.
func (*runsParams) AFact() {}

func (f *runsParams) String() string { return fmt.Sprintf("runs params %v", f.Params) }

// runsFields is the fact of a method that calls func-typed fields of its receiver as part of a
// call to it (cache.Cache.Get calling c.load): a callback runner whose callback was handed
// over earlier, to a constructor with a storesParams fact.
type runsFields struct {
	Fields []string
}

// AFact marks runsFields as an analysis fact.
func (*runsFields) AFact() {}

func (f *runsFields) String() string { return fmt.Sprintf("runs fields %v", f.Fields) }

// storesParams is the fact of a function that stores some of its func-typed parameters into
// fields of the struct its first result points to (cache.New(load) returning
// &Cache{load: load}). Params are indices among the SSA parameters, Fields the field of each.
type storesParams struct {
	Params []int
	Fields []string
}

// AFact marks storesParams as an analysis fact.
func (*storesParams) AFact() {}

func (f *storesParams) String() string {
	return fmt.Sprintf("stores params %v in %v", f.Params, f.Fields)
}

// summarised is the package fact of a package whose functions' runsParams facts were
// computed: a function of it without one runs none of its parameters (it stores them, or
// starts them on a goroutine).
type summarised struct{}

// AFact marks summarised as an analysis fact.
func (*summarised) AFact() {}

func (*summarised) String() string { return "summarised" }

// ignoresCtx is the fact of a function or method that takes a ctx and does no work with it:
// never refers to it, or (Reads) refers to it only to read values, log or record a metric, or
// (Measures) only to record metrics.
type ignoresCtx struct {
	Reads, Measures bool
	// Inspects: it asks its ctx whether it is done (a predicate on the error after the work),
	// which is work when it is called in a loop. State: that is all it does with its ctx.
	Inspects, State bool
	// Unreferred: its ctx parameters are unnamed, blank or never referred to in its body.
	Unreferred bool
}

// AFact marks ignoresCtx as an analysis fact.
func (*ignoresCtx) AFact() {}

func (f *ignoresCtx) String() string {
	switch {
	case f.Measures:
		return "ignores ctx (measures)"
	case f.Reads:
		return "ignores ctx (reads values)"
	}
	return "ignores ctx"
}

// externalPkg is the package fact of a package of the standard library or of a dependency
// module, so that its importers tell the user's code from code they do not own without
// guessing from file paths (a module cache may be anywhere).
type externalPkg struct{}

// AFact marks externalPkg as an analysis fact.
func (*externalPkg) AFact() {}

func (*externalPkg) String() string { return "external" }

// Result is what the rules share about one package.
type Result struct {
	// Directives are the package's //deadlinelint: comments.
	Directives *directive.Index
	// External is true for the standard library and versioned dependency modules: code the
	// user does not own. Rules stay silent there unless asked otherwise.
	External bool
	// RPC is true when the package depends on gRPC or connect-go, so it may hold request
	// scopes or client calls.
	RPC bool
	// Context is true when the package imports "context" or depends on gRPC/connect-go:
	// without either, no ctx value can appear in it.
	Context bool
	// testingFiles are the package's non-test files that import "testing" (scope.TestingFiles).
	testingFiles map[string]bool

	pass      *analysis.Pass
	generated map[string]bool
	marked    bool // some function carries //deadlinelint:scope

	once     sync.Once
	info     *Info
	types    callees.Types                        // the named types every resolver of the package looks through
	returned map[types.Object]*ctxorigin.Returned // the Returned facts of imported functions
	external map[*types.Package]bool              // imported packages the user does not own

	callsOnce sync.Once
	calls     map[token.Pos]*ast.CallExpr

	deadOnce   sync.Once
	dead       []span                // blocks a constant condition keeps from running, in order (dead.go)
	unused     map[*types.Func][]int // the package's functions' parameters they never refer to (unrun.go)
	watches    map[*types.Func][]int // the package's functions' parameters whose request's end they wait on (watches.go)
	handedOnce sync.Once
	handed     map[*ssa.Function]*scope.Scope // the helpers request scopes hand the request's ctx (handed.go)

	ignoring map[types.Object]bool // this package's functions that ignore the ctx they take
	starts   map[*types.Func]bool  // this package's functions that use their ctx only in goroutines they start
	ig       *ignoring             // the walker that tells them, shared with NoWork
	igMu     sync.Mutex            // serialises the rules' questions to ig (OnlyMeasures, CallIgnoresCtx)
}

// Info is the SSA-level view of a package.
type Info struct {
	Pkg   *ssa.Package
	Funcs []*ssa.Function // source functions and their literals, in source order, outside generated files
	// Generated are the functions of the package's generated files, with their literals: no
	// rule reads them, but what they store into the package's fields and variables is stored.
	Generated []*ssa.Function
	Scopes    *scope.Set
	Origins   *ctxorigin.Resolver

	carriers carriers
}

// MayHaveScopes reports whether the package can contain a request scope at all.
func (r *Result) MayHaveScopes() bool { return r.RPC || r.marked }

// SSA builds (once) and returns the package's SSA view.
func (r *Result) SSA() *Info {
	r.once.Do(func() {
		r.info = buildSSA(r.pass, r.generated, r.returned, r.testingFiles, r.Owned, &r.types, r.neverRun)
	})
	return r.info
}

// Generated reports whether pos lies in a generated file.
func (r *Result) Generated(pos token.Pos) bool {
	f := r.pass.Fset.File(pos)
	return f != nil && r.generated[f.Name()]
}

// CallExpr returns the call expression whose opening parenthesis is at lparen (the position
// SSA gives a call), or nil.
func (r *Result) CallExpr(lparen token.Pos) *ast.CallExpr {
	r.callsOnce.Do(func() {
		r.calls = make(map[token.Pos]*ast.CallExpr)
		for _, f := range r.pass.Files {
			ast.Inspect(f, func(n ast.Node) bool {
				if c, ok := n.(*ast.CallExpr); ok {
					r.calls[c.Lparen] = c
				}
				return true
			})
		}
	})
	return r.calls[lparen]
}

func run(pass *analysis.Pass) (any, error) {
	res := &Result{
		pass:       pass,
		Directives: directive.Collect(pass.Fset, pass.Files),
		External:   isExternal(pass),
		RPC:        typesutil.DependsOn(pass.Pkg, typesutil.GRPCPath, typesutil.ConnectPath),
		generated:  make(map[string]bool),
	}
	res.testingFiles = scope.TestingFiles(pass.Fset, pass.Files)
	res.Context = res.RPC || typesutil.ImportsContext(pass.Pkg)
	for _, f := range pass.Files {
		if isGenerated(pass.Fset, f) {
			res.generated[pass.Fset.File(f.Pos()).Name()] = true
		}
	}
	for _, d := range res.Directives.All() {
		res.marked = res.marked || d.Kind == directive.Scope
	}
	exportWrapsAs(pass)
	if res.External {
		pass.ExportPackageFact(new(externalPkg))
		if typesutil.ImportsContext(pass.Pkg) {
			exportReaders(pass)
			exportStarts(pass)
			exportUnused(pass)
			exportWatches(pass)
		}
		return res, nil // rules ask no more of code the user does not own
	}
	res.unused = exportUnused(pass)
	res.watches = exportWatches(pass)
	res.external = make(map[*types.Package]bool)
	for _, f := range pass.AllPackageFacts() {
		if _, ok := f.Fact.(*externalPkg); ok {
			res.external[f.Package] = true
		}
	}
	if res.Context {
		res.returned = importReturned(pass)
		exportReturned(pass, res)
		res.ignoring = exportIgnoring(pass)
		res.starts = exportStarts(pass)
		exportSemanticIgnoring(pass, res, res.SSA())
		exportRuns(pass, res, res.SSA())
		exportWraps(pass, res.SSA())
	} else if takesCallbacks(pass.Pkg) {
		// No ctx here, but callbacks it is given may run on goroutines of its own (a helper
		// starting a detached goroutine with panic recovery): its callers' packages learn from
		// its summary which of them run as part of the call.
		exportRuns(pass, res, res.SSA())
	}
	return res, nil
}

// wrapsParams is the fact of an exported function returning a ctx that only adds values to
// some of its ctx parameters (ctxorigin.Resolver.OnlyWraps): WithTrace(ctx, id) returning
// context.WithValue(ctx, traceKey{}, id). Params are indices among the SSA parameters,
// receiver first.
type wrapsParams struct{ Params []int }

// AFact marks wrapsParams as an analysis fact.
func (*wrapsParams) AFact() {}

func (f *wrapsParams) String() string { return fmt.Sprintf("wraps params %v", f.Params) }

// exportWraps exports a wrapsParams fact for each exported function of the package that only
// adds values to one of its ctx parameters and returns it: a helper detaching a ctx by hand in
// another package may wrap its root in it (ctxorigin.Resolver.HandDetached).
func exportWraps(pass *analysis.Pass, info *Info) {
	for _, fn := range info.Funcs {
		obj, ok := fn.Object().(*types.Func)
		if !ok || !obj.Exported() || obj.Pkg() != pass.Pkg || !typesutil.ReturnsContext(fn.Signature) {
			continue
		}
		var f wrapsParams
		for i, p := range fn.Params {
			if typesutil.IsContext(p.Type()) && info.Origins.OnlyWraps(fn, i) {
				f.Params = append(f.Params, i)
			}
		}
		if len(f.Params) > 0 {
			pass.ExportObjectFact(obj, &f)
		}
	}
}

// wrapsParam reports whether fn, a function of another package, only adds values to its ctx
// parameter k and returns it, by its fact.
func wrapsParam(pass *analysis.Pass, fn *types.Func, k int) bool {
	var f wrapsParams
	return pass.ImportObjectFact(fn.Origin(), &f) && slices.Contains(f.Params, k)
}

// takesCallbacks reports whether pkg declares an exported function, or an exported method of
// a named type, with a parameter of function type.
func takesCallbacks(pkg *types.Package) bool {
	hasFuncParam := func(sig *types.Signature) bool {
		for v := range sig.Params().Variables() {
			if _, ok := v.Type().Underlying().(*types.Signature); ok {
				return true
			}
		}
		return false
	}
	scope := pkg.Scope()
	for _, name := range scope.Names() {
		switch obj := scope.Lookup(name).(type) {
		case *types.Func:
			if obj.Exported() && hasFuncParam(obj.Signature()) {
				return true
			}
		case *types.TypeName:
			named, ok := types.Unalias(obj.Type()).(*types.Named)
			if !ok {
				continue
			}
			for m := range named.Methods() {
				if m.Exported() && hasFuncParam(m.Signature()) {
					return true
				}
			}
		}
	}
	return false
}

// exportRuns exports a runsParams fact for each exported function and method of the package
// that runs one of its func-typed parameters, and marks the package summarised.
func exportRuns(pass *analysis.Pass, res *Result, info *Info) {
	targets := res.NewCallees()
	for _, fn := range info.Funcs {
		obj, ok := fn.Object().(*types.Func)
		if !ok || !obj.Exported() || obj.Pkg() != pass.Pkg {
			continue
		}
		var f runsParams
		for i, p := range fn.Params {
			if _, isFunc := p.Type().Underlying().(*types.Signature); isFunc && targets.RunsParam(fn, i) {
				f.Params = append(f.Params, i)
				run := res.paramCallbackCtx(targets, fn, i, 0)
				f.Ctx = append(f.Ctx, run.Ctx)
				f.Wait = append(f.Wait, run.Wait)
			}
		}
		if len(f.Params) > 0 {
			pass.ExportObjectFact(obj, &f)
		}
		if fields := runFields(fn); len(fields) > 0 {
			pass.ExportObjectFact(obj, &runsFields{Fields: fields})
		}
		if sp := storedParams(fn); len(sp.Params) > 0 {
			pass.ExportObjectFact(obj, sp)
		}
	}
	pass.ExportPackageFact(new(summarised))
}

// runFields returns the func-typed fields of its receiver that the method fn calls in its own
// body, not on a goroutine nor deferred: c.load(ctx, k).
func runFields(fn *ssa.Function) []string {
	if fn.Signature.Recv() == nil || len(fn.Params) == 0 {
		return nil
	}
	recv := fn.Params[0]
	var out []string
	for _, b := range fn.Blocks {
		for _, instr := range b.Instrs {
			call, ok := instr.(*ssa.Call)
			if !ok || call.Call.IsInvoke() {
				continue
			}
			if f := callees.ReceiverField(call.Call.Value, recv); f != "" && !slices.Contains(out, f) {
				out = append(out, f)
			}
		}
	}
	return out
}

// storedParams returns which func-typed parameters fn stores, unchanged, into a field of a
// struct it allocates and returns as its first result (return &Cache{load: load}).
func storedParams(fn *ssa.Function) *storesParams {
	f := new(storesParams)
	if fn.Signature.Results().Len() == 0 {
		return f
	}
	returned := valueflow.Returned(fn, 0)
	for i, p := range fn.Params {
		if _, isFunc := p.Type().Underlying().(*types.Signature); !isFunc || p.Referrers() == nil {
			continue
		}
		for _, ref := range *p.Referrers() {
			st, ok := ref.(*ssa.Store)
			if !ok || st.Val != p {
				continue
			}
			fa, ok := st.Addr.(*ssa.FieldAddr)
			if !ok || !slices.Contains(returned, ssa.Value(fa.X)) {
				continue
			}
			f.Params = append(f.Params, i)
			f.Fields = append(f.Fields, typesutil.FieldVar(fa.X.Type(), fa.Field).Name())
			break
		}
	}
	return f
}

// NewCallees returns a resolver of the package's calls (callees.Resolver) that knows, through
// their facts, which parameters the functions of other summarised packages run. A rule makes
// its own: a resolver is not safe for concurrent use.
func (r *Result) NewCallees() *callees.Resolver {
	info := r.SSA()
	t := callees.New(info.Pkg, info.Funcs, r.Owned, &r.types)
	t.Imported = r.importedRuns
	t.RunFields = r.runFields
	t.StoredParams = r.storedParams
	t.Hidden = info.Generated
	return t
}

// KeptByCallee reports whether the callee of the sink, a function of the package called
// statically, uses the ctx it is given only to make the lifetime of an object
// (ctxorigin.OwnedByObject of its parameter): s.ctx, s.cancel = context.WithCancel(ctx), for the
// object's Stop to cancel. What the object then does runs as long as it lives — a subscription a
// handler starts on the server's lifetime and stops when it returns — not as long as the ctx it
// was given.
func (r *Result) KeptByCallee(s ctxorigin.Sink) bool {
	common := s.Instr.Common()
	if common.IsInvoke() || s.Func == nil {
		return false
	}
	if _, static := common.Value.(*ssa.Function); !static {
		return false
	}
	fn := r.body(s.Func)
	if fn == nil || len(fn.Params) != len(common.Args) {
		return false
	}
	i := slices.Index(common.Args, s.Ctx)
	return i >= 0 && ctxorigin.OwnedByObject(fn.Params[i])
}

// body returns the function of this package declared as fn (the generic origin), with its
// body, or nil.
func (r *Result) body(fn *types.Func) *ssa.Function {
	if fn.Pkg() != r.pass.Pkg {
		return nil
	}
	f := r.SSA().Pkg.Prog.FuncValue(fn.Origin())
	if f == nil || f.Blocks == nil {
		return nil
	}
	return f
}

// runFields returns the receiver fields the method m runs: from its body in this package, from
// its runsFields fact in another.
func (r *Result) runFields(m *types.Func) []string {
	if fn := r.body(m); fn != nil {
		return runFields(fn)
	}
	var f runsFields
	if r.pass.ImportObjectFact(m.Origin(), &f) {
		return f.Fields
	}
	return nil
}

// storedParams returns which parameters fn stores into which field of its result: from its
// body in this package, from its storesParams fact in another.
func (r *Result) storedParams(fn *types.Func) map[int]string {
	var f storesParams
	if body := r.body(fn); body != nil {
		f = *storedParams(body)
	} else if !r.pass.ImportObjectFact(fn.Origin(), &f) {
		return nil
	}
	out := make(map[int]string, len(f.Params))
	for k, p := range f.Params {
		if k < len(f.Fields) {
			out[p] = f.Fields[k]
		}
	}
	return out
}

// callbackRun says with which ctx a function runs a callback it is given: Ctx is the index of
// its parameter (or of the call's argument) whose ctx it passes the callback unchanged, or -1
// when it runs it with a ctx of its own, one with a deadline, or not at all; Wait, when not -1,
// is the index of a time.Duration parameter (argument) that gives that ctx a deadline when it
// is positive — the callback has a deadline unless the caller passes none.
type callbackRun struct{ Ctx, Wait int }

var noRun = callbackRun{-1, -1}

// CallbackCtx returns, for a call whose callee runs the function value it is given as argument
// i, the index among the call's arguments of the ctx the callee runs it with, unchanged
// (batch.Each(ctx, ids, fn) calling fn(ctx, id): 0) — from the callee's body in the package,
// or its fact — or -1; bounded is set when the callee bounds that ctx by a wait the call gives
// it that is not the constant zero: the callback has a deadline, its length the caller's
// setting.
func (r *Result) CallbackCtx(targets *callees.Resolver, common *ssa.CallCommon, i int) (ctx int, bounded bool) {
	run := r.callbackCtx(targets, common, i, 0)
	return run.Ctx, run.Wait >= 0 && (run.Wait >= len(common.Args) || !ctxorigin.NotPositive(common.Args[run.Wait]))
}

func (r *Result) callbackCtx(targets *callees.Resolver, common *ssa.CallCommon, i, depth int) callbackRun {
	if callee := targets.Body(common); callee != nil {
		if depth > 4 || !targets.RunsParam(callee, i) {
			return noRun
		}
		return r.paramCallbackCtx(targets, callee, i, depth)
	}
	obj := targets.ImportedCallee(common)
	if obj == nil || obj.Pkg() == r.pass.Pkg || callees.BoundMethod(common, obj) {
		// A method value (f := c.Run; f(…)) takes no receiver among its arguments, while the
		// fact's indexes count it: not followed.
		return noRun
	}
	var f runsParams
	if !r.pass.ImportObjectFact(obj, &f) {
		return noRun
	}
	for k, p := range f.Params {
		if p == i && k < len(f.Ctx) {
			run := callbackRun{f.Ctx[k], -1}
			if k < len(f.Wait) {
				run.Wait = f.Wait[k]
			}
			return run
		}
	}
	return noRun
}

// paramCallbackCtx says with which of fn's parameters fn runs its func-typed parameter i on
// every call that runs it (callees.Runs): a call of it, directly or from a literal fn runs,
// starts or defers, or a call handing it to a function that runs it with one of that call's
// arguments (retry(ctx, 3, fn) inside fn's own helper). Ctx is the parameter whose ctx fn
// passes on unchanged, with no deadline added — or, with Wait set, with a deadline added only
// when fn's time.Duration parameter Wait is positive, by fn itself or by the runner it hands
// the callback to with that parameter (a constant zero there: no deadline). A run on a
// goroutine counts: a helper that runs the callback with its ctx on one path and, on another,
// on a goroutine under a per-attempt deadline (if wait > 0 { attempt, cancel =
// context.WithTimeout(ctx, wait) }; go func() { done <- fn(attempt) }()) runs it with ctx
// bounded by wait.
func (r *Result) paramCallbackCtx(targets *callees.Resolver, fn *ssa.Function, i, depth int) callbackRun {
	info := r.SSA()
	run, ok := noRun, true
	// Runs must agree on the ctx; a run bounded by a wait and one that is not make a callback
	// bounded unless the caller passes no wait — silent where it may be bounded.
	agree := func(got callbackRun) {
		switch {
		case run.Ctx < 0:
			run = got
		case got.Ctx != run.Ctx || got.Wait >= 0 && run.Wait >= 0 && got.Wait != run.Wait:
			ok = false
		case got.Wait >= 0:
			run.Wait = got.Wait
		}
	}
	targets.Runs(fn.Params[i], func(call ssa.CallInstruction, arg int) {
		common := call.Common()
		k, wait := typesutil.CtxParamIndex(common.Signature()), -1
		if arg >= 0 { // handed on: the ctx the runner gives it is one of this call's arguments
			handed := r.callbackCtx(targets, common, arg, depth+1)
			k = handed.Ctx
			if handed.Wait >= 0 {
				// The runner bounds it by the wait this call gives it: fn's own wait
				// parameter passed on, or none (a constant zero); a wait of fn's making
				// bounds it always.
				if wait = waitArg(fn, common, handed.Wait); wait == -2 {
					ok = false
					return
				}
			}
		}
		if k < 0 || k >= len(common.Args) {
			ok = false
			return
		}
		set := info.Origins.Of(common.Args[k])
		if len(set) == 0 {
			ok = false
			return
		}
		bounded := 0
		for _, o := range set {
			if o.Kind != ctxorigin.Param || o.Opaque || o.Param != set[0].Param || o.Param.Parent() != fn {
				ok = false
				return
			}
			if o.Deadline {
				bounded++
			}
		}
		got := callbackRun{ctxorigin.ParamIndex(fn, set[0].Param), wait}
		if bounded > 0 {
			// fn bounds it on some paths itself: by its own wait, the same as any passed on.
			own := waitParam(fn)
			if bounded == len(set) || own < 0 || wait >= 0 && wait != own {
				ok = false
				return
			}
			got.Wait = own
		}
		agree(got)
	})
	if !ok {
		return noRun
	}
	return run
}

// waitArg says which of fn's parameters is the wait argument i of a call in fn: its index, -1
// for none (the constant zero), or -2 for a wait fn makes itself.
func waitArg(fn *ssa.Function, common *ssa.CallCommon, i int) int {
	if i >= len(common.Args) {
		return -2
	}
	switch v := bound(common.Args[i]).(type) {
	case *ssa.Parameter:
		if v.Parent() == fn {
			return ctxorigin.ParamIndex(fn, v)
		}
	case *ssa.Const:
		if ctxorigin.NotPositive(v) {
			return -1
		}
	}
	return -2
}

// bound returns what a literal's free variable v holds where the literal is made, through
// enclosing literals: the one value bound, or — for a variable captured by reference (*v), as
// go/ssa captures a parameter — the one value ever stored to its cell (valueflow.Bindings,
// valueflow.LocalStores). v itself when there is not exactly one.
func bound(v ssa.Value) ssa.Value {
	for depth := 0; depth < 8; depth++ {
		var held []ssa.Value
		switch x := v.(type) {
		case *ssa.UnOp:
			cell, ok := bound(x.X).(*ssa.Alloc)
			if x.Op != token.MUL || !ok {
				return v
			}
			held = valueflow.LocalStores(cell)
		case *ssa.FreeVar:
			held = valueflow.Bindings(x)
		default:
			return v
		}
		if len(held) != 1 {
			return v
		}
		v = held[0]
	}
	return v
}

// waitParam returns the index of fn's time.Duration parameter wait that gives a ctx a deadline
// when it is positive: fn calls context.WithTimeout (or WithTimeoutCause) with wait itself, on
// a branch of a comparison of wait with a constant (if wait > 0 { ctx, cancel =
// context.WithTimeout(ctx, wait) }). -1 when there is not exactly one such parameter — a
// deadline from a default put in for zero, or a comparison of another duration, is no
// caller's setting.
func waitParam(fn *ssa.Function) int {
	found := -1
	for _, b := range fn.Blocks {
		for _, instr := range b.Instrs {
			call, ok := instr.(*ssa.Call)
			if !ok || len(call.Call.Args) < 2 {
				continue
			}
			callee := ctxorigin.Callee(&call.Call)
			if !typesutil.IsFunc(callee, "context", "WithTimeout") && !typesutil.IsFunc(callee, "context", "WithTimeoutCause") {
				continue
			}
			p, ok := bound(call.Call.Args[1]).(*ssa.Parameter)
			if !ok || p.Parent() != fn || !guardedBy(b, p) {
				continue
			}
			k := ctxorigin.ParamIndex(fn, p)
			if found >= 0 && found != k {
				return -1
			}
			found = k
		}
	}
	return found
}

// guardedBy reports whether block b runs only on one branch of a comparison of the parameter p
// with a constant.
func guardedBy(b *ssa.BasicBlock, p *ssa.Parameter) bool {
	for d := b.Idom(); d != nil; d = d.Idom() {
		if x := ctxorigin.ComparedWithConst(d); x != nil && bound(x) == p &&
			(ctxorigin.OnlyVia(d, 0, b) || ctxorigin.OnlyVia(d, 1, b)) {
			return true
		}
	}
	return false
}

// importedRuns answers whether fn, a function of another package, runs its parameter i; ok
// is false when its package was not summarised.
func (r *Result) importedRuns(fn *types.Func, i int) (runs, ok bool) {
	fn = fn.Origin()
	if !r.pass.ImportPackageFact(fn.Pkg(), new(summarised)) {
		return false, false
	}
	var f runsParams
	if r.pass.ImportObjectFact(fn, &f) {
		return slices.Contains(f.Params, i), true
	}
	return false, true
}

// IgnoresCtx reports whether fn, a function or method of the user's code, takes a ctx and does
// no work with it (never refers to it, or only reads from it, derives a ctx it drops, or
// hands it to functions that do the same): known from its body in this package, from its
// fact in another.
func (r *Result) IgnoresCtx(fn *types.Func) bool {
	if fn.Pkg() == r.pass.Pkg {
		return r.ignoring[fn]
	}
	return r.pass.ImportObjectFact(fn, new(ignoresCtx))
}

// exportIgnoring finds, from the syntax, the functions and methods of the package whose ctx
// parameters are all unnamed, blank or never referred to, and exports a fact for each.
func exportIgnoring(pass *analysis.Pass) map[types.Object]bool {
	used := usedObjects(pass)
	out := make(map[types.Object]bool)
	for _, d := range declsOf(pass) {
		if ignoresCtxParams(d.obj, used) {
			out[d.obj] = true
			pass.ExportObjectFact(d.obj, &ignoresCtx{Unreferred: true})
		}
	}
	return out
}

// A decl is a function declaration of the package and its object.
type decl struct {
	fd  *ast.FuncDecl
	obj *types.Func
}

// declsOf returns the functions and methods the package's files declare with a body.
func declsOf(pass *analysis.Pass) []decl {
	var out []decl
	for _, f := range pass.Files {
		for _, d := range f.Decls {
			fd, ok := d.(*ast.FuncDecl)
			if !ok || fd.Body == nil {
				continue
			}
			if obj, ok := pass.TypesInfo.Defs[fd.Name].(*types.Func); ok {
				out = append(out, decl{fd, obj})
			}
		}
	}
	return out
}

// usedObjects returns the objects the package's files refer to.
func usedObjects(pass *analysis.Pass) map[types.Object]bool {
	used := make(map[types.Object]bool)
	for _, obj := range pass.TypesInfo.Uses {
		used[obj] = true
	}
	return used
}

// exportReaders exports, for a package the user does not own, an ignoresCtx fact (Reads) for
// each function whose ctx parameters are used only to read values from — ctx.Value(k), a
// comparison with nil, or handing it to a function known to do the same (of this package, by
// the same test, or of another, by its fact): a library's user.ExtractOrgID(ctx) or
// trace.SpanFromContext(ctx). A root handed to one carries values and loses no deadline. It
// exports the fact without Reads for each function that never refers to its ctx, or hands it
// only to such functions and readers. It is a syntactic test, cheap enough for every
// dependency; SSA is built only for the user's code.
func exportReaders(pass *analysis.Pass) {
	var decls []decl
	for _, d := range declsOf(pass) {
		if typesutil.CtxParamIndex(d.obj.Signature()) >= 0 {
			decls = append(decls, d)
		}
	}
	readers := make(map[*types.Func]bool)
	isReader := func(fn *types.Func) bool {
		if fn == nil {
			return false
		}
		fn = fn.Origin() // a generic method called from another: k.ValueOk(ctx) in Key[V].Value
		if fn.Pkg() == pass.Pkg {
			return readers[fn]
		}
		var f ignoresCtx
		return ctxorigin.IsReader(fn) || pass.ImportObjectFact(fn.Origin(), &f) && f.Reads
	}
	// A reader may call one declared later: repeat until nothing changes.
	grow := func(set map[*types.Func]bool, accepts func(d decl) bool) {
		for changed := true; changed; {
			changed = false
			for _, d := range decls {
				if !set[d.obj] && accepts(d) {
					set[d.obj], changed = true, true
				}
			}
		}
	}
	shrinkReaders(pass, decls, readers, isReader)
	// A function that never refers to its ctx, or only hands it to readers and to functions
	// that never refer to theirs (tsdb's DB.Appender(ctx) calling Head.Appender(_ context.Context)),
	// does no work with it either: no deadline of that ctx bounds what it does, and no error it
	// returns is that ctx's. It only carries values when it reads some (readers).
	idle := make(map[*types.Func]bool)
	isIdle := func(fn *types.Func) bool {
		if fn == nil {
			return false
		}
		fn = fn.Origin()
		if fn.Pkg() == pass.Pkg {
			return readers[fn] || idle[fn]
		}
		return ctxorigin.IsReader(fn) || pass.ImportObjectFact(fn.Origin(), new(ignoresCtx))
	}
	grow(idle, func(d decl) bool {
		ok, _ := ctxUses(pass.TypesInfo, d.fd, isIdle)
		return !readers[d.obj] && ok
	})
	for _, d := range decls {
		if readers[d.obj] || idle[d.obj] {
			pass.ExportObjectFact(d.obj, &ignoresCtx{Reads: readers[d.obj]})
		}
	}
	exportInterfaceReaders(pass, decls, isIdle)
}

// shrinkReaders fills readers with the package's functions that refer to their ctx only to
// read values from it. It is a greatest fixpoint: functions that hand their ctx only to one
// another and to readers read values and do nothing else — a logger's Error calling a helper
// that calls Error again through the package's Logger variable. It starts from every function
// that refers to its ctx and drops each with a use that is not a read until none is left to
// drop. A call of a method of an interface of the package reads when the method of every type
// of the package implementing the receiver's interface (one at least) does, or never refers
// to its ctx: the receiver's own interface, not the one declaring the method (a Pipeliner's
// Pipelined, declared by the Cmdable it embeds, runs the pipeline's Exec).
func shrinkReaders(pass *analysis.Pass, decls []decl, readers map[*types.Func]bool, isReader func(*types.Func) bool) {
	info := pass.TypesInfo
	byObj := make(map[*types.Func]bool)
	unreferred := make(map[*types.Func]bool)
	for _, d := range decls {
		byObj[d.obj] = true
		if _, used := ctxUses(info, d.fd, func(*types.Func) bool { return true }); used {
			readers[d.obj] = true
		} else {
			unreferred[d.obj] = true
		}
	}
	impls := make(map[*types.Named][]types.Type)
	invokeReads := func(fn *types.Func, call *ast.CallExpr) bool {
		sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr)
		if !ok || fn == nil {
			return false
		}
		s := info.Selections[sel]
		if s == nil || s.Kind() != types.MethodVal {
			return false
		}
		named, ok := types.Unalias(s.Recv()).(*types.Named)
		if !ok || named.Obj().Pkg() != pass.Pkg {
			return false
		}
		iface, ok := named.Underlying().(*types.Interface)
		if !ok {
			return false
		}
		ts, seen := impls[named]
		if !seen {
			ts = callees.ImplementersIn(pass.Pkg, iface)
			impls[named] = ts
		}
		for _, t := range ts {
			obj, _, _ := types.LookupFieldOrMethod(t, true, fn.Pkg(), fn.Name())
			impl, _ := obj.(*types.Func)
			if !byObj[impl] || !readers[impl] && !unreferred[impl] {
				return false // promoted from another package, no body here, or work
			}
		}
		return len(ts) > 0
	}
	reads := func(fn *types.Func, call *ast.CallExpr) bool {
		return isReader(fn) || invokeReads(fn, call)
	}
	// A ctx stored in a field the package only reads values from is read (fields.go).
	fields := newReadOnlyFields(info, pass.Pkg, pass.Files)
	for changed := true; changed; {
		changed = fields.shrink(reads)
		for _, d := range decls {
			if !readers[d.obj] {
				continue
			}
			ok, _ := everyCtxUse(info, d.fd, func(id *ast.Ident, stack []ast.Node) bool {
				return fields.readUse(id, stack, reads)
			})
			if !ok {
				delete(readers, d.obj)
				changed = true
			}
		}
	}
}

// exportInterfaceReaders exports an ignoresCtx fact for each ctx-taking method of an interface
// the package declares whose every implementation the package declares (one at least) only
// reads values from its ctx or never refers to it — a logger's DebugContext: a wrapper attaching
// the trace, a no-op, and a fan-out calling the same method of the interface, which counts as
// doing no work while the method is judged. An implementation elsewhere is out of sight of a
// library's own package; one of the user's code is judged where it is in sight
// (Result.InterfaceNoWork).
func exportInterfaceReaders(pass *analysis.Pass, decls []decl, idle func(*types.Func) bool) {
	byObj := make(map[*types.Func]*ast.FuncDecl)
	for _, d := range decls {
		byObj[d.obj] = d.fd
	}
	scope := pass.Pkg.Scope()
	for _, name := range scope.Names() {
		tn, ok := scope.Lookup(name).(*types.TypeName)
		if !ok || tn.IsAlias() {
			continue
		}
		iface, ok := tn.Type().Underlying().(*types.Interface)
		if !ok {
			continue
		}
		for i := range iface.NumMethods() {
			m := iface.Method(i)
			if m.Pkg() == pass.Pkg && typesutil.CtxParamIndex(m.Signature()) >= 0 && implsDoNoWork(pass, m, callees.ImplementersIn(pass.Pkg, iface), byObj, idle) {
				pass.ExportObjectFact(m, &ignoresCtx{Reads: true})
			}
		}
	}
}

// implsDoNoWork reports whether each of impls (one at least) has a method m declared in the
// package that does no work with its ctx (idle), a call of m itself counting as none.
func implsDoNoWork(pass *analysis.Pass, m *types.Func, impls []types.Type, byObj map[*types.Func]*ast.FuncDecl, idle func(*types.Func) bool) bool {
	for _, t := range impls {
		obj, _, _ := types.LookupFieldOrMethod(t, true, m.Pkg(), m.Name())
		impl, _ := obj.(*types.Func)
		fd := byObj[impl]
		if fd == nil {
			return false // promoted from another package, or no body here: out of sight
		}
		if ok, _ := ctxUses(pass.TypesInfo, fd, func(fn *types.Func) bool { return fn == m || idle(fn) }); !ok {
			return false
		}
	}
	return len(impls) > 0
}

// ctxUses reports whether every use of fd's ctx parameters reads values from it (ok): the
// receiver of a Value call, an operand of a comparison, or an argument of a call of a reader;
// and whether there is one (used).
func ctxUses(info *types.Info, fd *ast.FuncDecl, isReader func(*types.Func) bool) (ok, used bool) {
	return everyCtxUse(info, fd, func(id *ast.Ident, stack []ast.Node) bool {
		return readUse(info, id, stack, isReader)
	})
}

// everyCtxUse reports whether accepts holds for every use of fd's ctx parameters, given the
// nodes above it (ok), and whether there is one (used).
func everyCtxUse(info *types.Info, fd *ast.FuncDecl, accepts func(id *ast.Ident, stack []ast.Node) bool) (ok, used bool) {
	params := ctxParams(info, fd)
	ok = true
	var stack []ast.Node
	ast.Inspect(fd.Body, func(n ast.Node) bool {
		if n == nil {
			stack = stack[:len(stack)-1]
			return false
		}
		if id, isIdent := n.(*ast.Ident); isIdent && params[info.Uses[id]] {
			used = true
			ok = ok && accepts(id, stack)
		}
		stack = append(stack, n)
		return ok
	})
	return ok, used
}

// readUse reports whether the use id of a ctx parameter, under the nodes stack, reads from it.
func readUse(info *types.Info, id *ast.Ident, stack []ast.Node, isReader func(*types.Func) bool) bool {
	return readUseBy(info, id, stack, func(fn *types.Func, _ *ast.CallExpr) bool { return isReader(fn) })
}

// readUseBy is readUse with the calls that read judged by reads, given the callee (nil for a
// function value) and the call; id may also be a selection of a ctx field (readOnlyFields).
func readUseBy(info *types.Info, id ast.Expr, stack []ast.Node, reads func(*types.Func, *ast.CallExpr) bool) bool {
	if len(stack) == 0 {
		return false
	}
	switch p := stack[len(stack)-1].(type) {
	case *ast.SelectorExpr: // ctx.Value(k)
		if p.X != id || p.Sel.Name != "Value" || len(stack) < 2 {
			return false
		}
		call, ok := stack[len(stack)-2].(*ast.CallExpr)
		return ok && call.Fun == p
	case *ast.BinaryExpr: // ctx == nil
		return p.Op == token.EQL || p.Op == token.NEQ
	case *ast.CallExpr: // reader(ctx)
		if p.Fun == id {
			return false
		}
		fn, _ := typeutil.Callee(info, p).(*types.Func)
		return reads(fn, p)
	}
	return false
}

// ignoresCtxParams reports whether fn has a ctx parameter and none of them is used.
func ignoresCtxParams(fn *types.Func, used map[types.Object]bool) bool {
	params := fn.Signature().Params()
	found := false
	for i := 0; i < params.Len(); i++ {
		p := params.At(i)
		if typesutil.IsContext(p.Type()) {
			found = true
			if used[p] {
				return false
			}
		}
	}
	return found
}

// importReturned collects, while the pass runs, the Returned facts of the functions of the
// packages it imports: the resolver, built later on a rule's demand, looks them up there.
func importReturned(pass *analysis.Pass) map[types.Object]*ctxorigin.Returned {
	out := make(map[types.Object]*ctxorigin.Returned)
	for _, f := range pass.AllObjectFacts() {
		if r, ok := f.Fact.(*ctxorigin.Returned); ok && f.Object.Pkg() != pass.Pkg {
			out[f.Object] = r
		}
	}
	return out
}

// exportReturned exports a Returned fact for each exported function and method of the package
// that returns a ctx. SSA is built only for packages that declare one.
func exportReturned(pass *analysis.Pass, res *Result) {
	if !declaresCtxReturner(pass) {
		return
	}
	info := res.SSA()
	for _, fn := range info.Funcs {
		obj, ok := fn.Object().(*types.Func)
		if !ok || !obj.Exported() || obj.Pkg() != pass.Pkg {
			continue
		}
		if f := info.Origins.ReturnedOf(fn); f != nil {
			pass.ExportObjectFact(obj, f)
		}
	}
}

// declaresCtxReturner reports whether the package declares an exported function or method
// whose results include a context.Context.
func declaresCtxReturner(pass *analysis.Pass) bool {
	for id, obj := range pass.TypesInfo.Defs {
		fn, ok := obj.(*types.Func)
		if ok && id.IsExported() && typesutil.ReturnsContext(fn.Signature()) {
			return true
		}
	}
	return false
}

// isGenerated reports whether f is a generated file. A file that cgo rewrote says it was
// generated by cmd/cgo, but its //line directives point back at the user's own source: that
// one is not generated.
func isGenerated(fset *token.FileSet, f *ast.File) bool {
	if !ast.IsGenerated(f) {
		return false
	}
	return fset.PositionFor(f.Package, true).Filename == fset.PositionFor(f.Package, false).Filename
}

// Owned reports whether obj is declared in code the user owns: not in the standard library or
// a dependency module (known from the externalPkg fact of its package), nor in the module cache
// or a vendor directory.
func (r *Result) Owned(obj types.Object) bool {
	if obj == nil || !obj.Pos().IsValid() || obj.Pkg() == nil {
		return false
	}
	if obj.Pkg() == r.pass.Pkg {
		return !r.External
	}
	return !r.external[obj.Pkg()] && !isExternalFile(r.pass.Fset.Position(obj.Pos()).Filename)
}

// isExternalFile reports whether a source file lies in the standard library, the module
// cache or a vendor directory. Positions read from export data name them as the go command
// compiled them: "$GOROOT/src/errors/wrap.go" for the standard library and
// "google.golang.org/grpc@v1.77.0/server.go" for a module of the cache (-trimpath), where a
// package analysed from source names its files' absolute paths.
func isExternalFile(name string) bool {
	name = filepath.ToSlash(name)
	goroot := filepath.ToSlash(filepath.Clean(build.Default.GOROOT)) + "/"
	return strings.HasPrefix(name, goroot) || strings.HasPrefix(name, "$GOROOT/") ||
		strings.Contains(name, "/pkg/mod/") || strings.Contains(name, "/vendor/") || trimmedModulePath(name)
}

// trimmedModulePath reports whether name is a file of a module of the module cache as the go
// command writes it in export data: relative, its path starting with module@version.
func trimmedModulePath(name string) bool {
	if name == "" || strings.HasPrefix(name, "/") || filepath.IsAbs(name) {
		return false
	}
	for _, elem := range strings.Split(name, "/") {
		if i := strings.Index(elem, "@v"); i > 0 && i+2 < len(elem) && elem[i+2] >= '0' && elem[i+2] <= '9' {
			return true
		}
	}
	return false
}

// isExternal reports whether the package is part of the standard library or of a versioned
// dependency module.
func isExternal(pass *analysis.Pass) bool {
	if pass.Module != nil && pass.Module.Version != "" {
		return true
	}
	if len(pass.Files) == 0 {
		return true
	}
	return isExternalFile(pass.Fset.File(pass.Files[0].Pos()).Name())
}

// buildSSA creates the SSA package the way buildssa does, without its noreturn pass.
// A function literal made only by code that never runs (ctxorigin.NeverMade), or handed only to
// functions that never refer to it (neverRun), is left out of the functions the rules check.
func buildSSA(pass *analysis.Pass, generated map[string]bool, returned map[types.Object]*ctxorigin.Returned, testingFiles map[string]bool, owned func(types.Object) bool, ts *callees.Types, neverRun func(*ssa.Function) bool) *Info {
	prog := ssa.NewProgram(pass.Fset, 0)
	for _, p := range pass.Pkg.Imports() {
		prog.CreatePackage(p, nil, nil, true)
	}
	pkg := prog.CreatePackage(pass.Pkg, pass.Files, pass.TypesInfo, false)
	pkg.Build()

	var funcs, gen []*ssa.Function
	var add func(fn *ssa.Function, to *[]*ssa.Function)
	add = func(fn *ssa.Function, to *[]*ssa.Function) {
		*to = append(*to, fn)
		for _, anon := range fn.AnonFuncs {
			if !ctxorigin.NeverMade(anon) && !neverRun(anon) {
				add(anon, to)
			}
		}
	}
	for _, f := range pass.Files {
		to := &funcs
		if generated[pass.Fset.File(f.Pos()).Name()] {
			to = &gen
		}
		for _, decl := range f.Decls {
			if fd, ok := decl.(*ast.FuncDecl); ok {
				if fn := prog.FuncValue(pass.TypesInfo.Defs[fd.Name].(*types.Func)); fn != nil {
					add(fn, to)
				}
			}
		}
	}
	// Function literals in package-level var initialisers live in the synthetic init.
	if initFn := pkg.Func("init"); initFn != nil {
		for _, anon := range initFn.AnonFuncs {
			if !generated[pass.Fset.File(anon.Pos()).Name()] && !ctxorigin.NeverMade(anon) && !neverRun(anon) {
				add(anon, &funcs)
			}
		}
	}
	scopes := scope.Find(pass.Pkg, funcs, testingFiles)
	imported := func(fn *types.Func) *ctxorigin.Returned { return returned[fn] }
	origins := ctxorigin.New(scopes, imported)
	origins.Flow = valueflow.New(pkg, funcs)
	origins.ReadsParam = func(fn *types.Func, k int) bool { return readsParam(pass, fn, k) }
	origins.WrapsParam = func(fn *types.Func, k int) bool { return wrapsParam(pass, fn, k) }
	targets := callees.New(pkg, funcs, owned, ts)
	origins.Implementations = func(common *ssa.CallCommon) []ctxorigin.Impl {
		var out []ctxorigin.Impl
		for _, t := range targets.Dynamic(common) {
			if t.Obj == nil {
				return nil
			}
			out = append(out, ctxorigin.Impl{Obj: t.Obj, Body: t.Fn})
		}
		return out
	}
	return &Info{Pkg: pkg, Funcs: funcs, Generated: gen, Scopes: scopes, Origins: origins}
}

// CallRange returns the source range of the call expression of instr (a call, go or defer),
// falling back to the instruction's position, or — for a call the source does not spell, such
// as a range-over-func loop's call of its iterator — to the position of the function value
// called (the call of idx.All() that made the iterator).
func (r *Result) CallRange(instr ssa.CallInstruction) (token.Pos, token.Pos) {
	if c := r.CallExpr(instr.Common().Pos()); c != nil {
		return c.Pos(), c.End()
	}
	if pos := instr.Pos(); pos.IsValid() {
		return pos, token.NoPos
	}
	if v, ok := instr.Common().Value.(ssa.CallInstruction); ok {
		return r.CallRange(v)
	}
	return instr.Common().Value.Pos(), token.NoPos
}
