package ctxssa

import (
	"fmt"
	"go/token"
	"go/types"
	"slices"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/ssa"

	"github.com/deadlinelint/deadlinelint/internal/callees"
	"github.com/deadlinelint/deadlinelint/internal/ctxorigin"
	"github.com/deadlinelint/deadlinelint/internal/typesutil"
	"github.com/deadlinelint/deadlinelint/internal/valueflow"
)

// A function whose ctx parameters are referred to can still do nothing with them that a
// deadline matters to: it starts a span and drops the ctx the tracer returns, it logs with
// it, it records a metric with it, it hands it to a function that does the same. ignoring
// tells those functions apart, from their SSA, so that rules do not count a call of one as
// work.

// A use says which uses of a ctx count as doing no work with it.
type use uint8

const (
	// anyNoWork: whatever does no work — including a callee that never refers to its ctx.
	anyNoWork use = iota
	// carries: the ctx is referred to, only to carry values: read, logged, measured. A
	// function that never refers to its ctx (a stub, an in-memory double) says nothing of what
	// a call of it means to do with one.
	carries
	// measures: the ctx is referred to only to record metrics with.
	measures
	// inspects: the ctx is referred to only to ask whether it is done — ctx.Err() or
	// ctx.Done() compared with nil in a function without a loop, a predicate that classifies an
	// error after the work — or compared itself: no values are read, no work is done.
	inspects
	// leaves: as carries, and also handed to a parameter its callee never refers to — a
	// static call of a function whose body is in sight, here or (by its fact) in another
	// package (paramNoWork). Such a call does nothing with the ctx: neither bounds nor carries.
	leaves
	// dials: the ctx is referred to only to dial (ctxorigin.IsDial), keeping the connection, to
	// read values from it, to ask it whether it is done, or to derive a ctx used only so (a
	// dial timeout): a dial helper, whose connection outlives the request that asked.
	dials
	// stores: as dials, and every connection dialled is stored by the function that dials it
	// (in a field, a cache's map), not only returned: a helper that keeps the connection
	// itself, so that its caller need not keep what it returns (a client over it, used and
	// dropped).
	stores
	// initializes: as anyNoWork, and also handed to work done only on the first use of shared
	// state (ctxorigin.FirstUse: if d.id.Load() == nil { … d.id.Store(&id) }) or in a literal
	// a shared sync.Once's Do runs: initialisation every later caller shares, done once for
	// whoever came first, not work done for this caller.
	initializes
	nUses
)

// ignoring answers, with memoisation, which functions of the package ignore their ctx.
type ignoring struct {
	pass *analysis.Pass
	res  *Result
	mode use
	// strict: asking a ctx whether it is done counts as work — for a call made in a loop, whose
	// answer may be what stops the loop.
	strict bool
	memo   [2 * nUses]map[*ssa.Function]bool
	// The functions being answered, by memo, with their depth on the stack of questions; low
	// is the lowest depth whose answer, assumed yes, the current question used (a cycle), and
	// pending the yes answers waiting for that assumption to be confirmed (ignoresParams).
	active    map[activeKey]int
	low       int
	pending   []activeKey
	tentative map[activeKey]int // the pending yes answers, with the depth they wait on
	// targets resolves interface calls, made on first need. The walker's own: the walker runs
	// in ctxssa's pass and then in one rule only (OnlyMeasures), never in two at once.
	targets *callees.Resolver
	// fields indexes the selections of the package's ctx fields (fieldUses); unseen are those
	// also selected in generated files, judging those whose uses are being judged.
	fields  map[*types.Var][]ssa.Instruction
	unseen  map[*types.Var]bool
	judging map[*types.Var]bool
}

// ignorer returns the package's one ignoring walker, made on first use.
func (r *Result) ignorer() *ignoring {
	if r.ig == nil {
		r.ig = &ignoring{pass: r.pass, res: r, active: make(map[activeKey]int), low: noCycle,
			tentative: make(map[activeKey]int), unseen: make(map[*types.Var]bool), judging: make(map[*types.Var]bool)}
		for i := range r.ig.memo {
			r.ig.memo[i] = make(map[*ssa.Function]bool)
		}
	}
	return r.ig
}

// in answers f with the walker in mode m.
func (ig *ignoring) in(m use, f func() bool) bool {
	old := ig.mode
	ig.mode = m
	defer func() { ig.mode = old }()
	return f()
}

// strictly answers f with inspecting a ctx's state counting as work.
func (ig *ignoring) strictly(f func() bool) bool {
	old := ig.strict
	ig.strict = true
	defer func() { ig.strict = old }()
	return f()
}

// exportSemanticIgnoring adds to res.ignoring, and exports the fact for, the functions whose
// ctx parameters all reach no work (ignoresParams), saying whether they refer to their ctx only
// to carry values, or only to measure.
func exportSemanticIgnoring(pass *analysis.Pass, res *Result, info *Info) {
	ig := res.ignorer()
	for _, fn := range info.Funcs {
		obj, ok := fn.Object().(*types.Func)
		if !ok || res.ignoring[obj] || fn.Parent() != nil {
			continue
		}
		if ig.ignoresParams(fn) {
			res.ignoring[obj] = true
			pass.ExportObjectFact(obj, &ignoresCtx{
				Reads:    ig.in(carries, func() bool { return ig.ignoresParams(fn) }),
				Measures: ig.in(measures, func() bool { return ig.ignoresParams(fn) }),
				Inspects: !ig.strictly(func() bool { return ig.ignoresParams(fn) }),
				State:    ig.in(inspects, func() bool { return ig.ignoresParams(fn) }),
			})
			continue
		}
		if ig.in(dials, func() bool { return ig.ignoresParams(fn) }) {
			pass.ExportObjectFact(obj, &dialsOnly{Stores: ig.in(stores, func() bool { return ig.ignoresParams(fn) })})
		}
		if ig.in(initializes, func() bool { return ig.ignoresParams(fn) }) {
			pass.ExportObjectFact(obj, new(initsOnly))
		}
		if !obj.Exported() {
			continue
		}
		var f readsParams
		for i, p := range fn.Params {
			if typesutil.IsContext(p.Type()) && referred(p) && ig.in(carries, func() bool { return ig.noWork(p, 0) }) {
				f.Params = append(f.Params, i)
			}
		}
		if len(f.Params) > 0 {
			pass.ExportObjectFact(obj, &f)
		}
	}
}

// readsParams is the fact of a function some of whose ctx parameters — not all: that is
// ignoresCtx — it only reads values from, and neither returns nor hands to work: the source
// of tracing.CopyTraceContext(context.Background(), ctx), whose result derives from its other
// ctx. Params are indices among the SSA parameters, receiver first.
type readsParams struct {
	Params []int
}

// AFact marks readsParams as an analysis fact.
func (*readsParams) AFact() {}

func (f *readsParams) String() string { return fmt.Sprintf("reads params %v", f.Params) }

// readsParam reports whether fn, a function of another package, only reads values from its
// ctx parameter k (the receiver first), by its fact: readsParams naming k, or ignoresCtx saying
// that it only carries its ctx's values.
func readsParam(pass *analysis.Pass, fn *types.Func, k int) bool {
	var ignores ignoresCtx
	return readsParamFact(pass, fn, k) || pass.ImportObjectFact(fn.Origin(), &ignores) && ignores.Reads
}

// readsParamFact reports whether fn's readsParams fact names its parameter k.
func readsParamFact(pass *analysis.Pass, fn *types.Func, k int) bool {
	var reads readsParams
	return pass.ImportObjectFact(fn.Origin(), &reads) && slices.Contains(reads.Params, k)
}

// paramNoWork reports whether callee, called statically with the ctx as argument k (receiver
// first), only reads values from that parameter — or, in the leaves mode, never refers to it:
// from its body in this package, from its readsParams or ignoresCtx fact in another. What the
// call returns is then no ctx derived from this one.
func (ig *ignoring) paramNoWork(callee *types.Func, k, depth int) bool {
	if ig.mode == measures {
		return false
	}
	if callee.Pkg() == ig.pass.Pkg {
		fn := ig.res.body(callee)
		switch {
		case fn == nil || k >= len(fn.Params):
			return false
		case !referred(fn.Params[k]):
			return ig.mode == leaves // never looked at: s.master(context.Background()) returning a field
		}
		return ig.in(carries, func() bool { return ig.noWork(fn.Params[k], depth+1) })
	}
	return readsParamFact(ig.pass, callee, k) || ig.mode == leaves && unreferred(ig.pass, callee)
}

// unreferred reports whether fn takes a ctx and never refers to it, by its ignoresCtx fact
// (exportIgnoring's, from its syntax; in this package as in another).
func unreferred(pass *analysis.Pass, fn *types.Func) bool {
	var ignores ignoresCtx
	return pass.ImportObjectFact(fn.Origin(), &ignores) && ignores.Unreferred
}

// OnlyLeaves reports whether the ctx value v, of a function of this package, is used only to
// carry values (OnlyCarries) or handed to parameters their callees never refer to: a function
// in sight that never looks at the ctx it takes (s.master(ctx) returning a field) does nothing
// with a root either. A root used so bounds no work and loses no deadline.
func (r *Result) OnlyLeaves(v ssa.Value) bool {
	r.igMu.Lock()
	defer r.igMu.Unlock()
	ig := r.ignorer()
	return ig.in(leaves, func() bool { return ig.noWork(v, 0) })
}

// OnlyMeasures reports whether the ctx value v, of a function of this package, is used only to
// record metrics: handed to an instrument's Add or Record (ctxorigin.IsMeasurement) or to a
// logger's level query (slog's Enabled: nothing is written with it), derived into a ctx used
// so, or handed to functions of the user's code that refer to their ctx only to do the same. A
// root context used so carries tags to a counter; no deadline is lost.
func (r *Result) OnlyMeasures(v ssa.Value) bool {
	r.igMu.Lock()
	defer r.igMu.Unlock()
	ig := r.ignorer()
	return ig.in(measures, func() bool { return ig.noWork(v, 0) })
}

// OnlyCarries reports whether the ctx value v, of a function of this package, is used only to
// carry values: read from (ctx.Value, the span or metadata it holds), logged with, measured
// with, derived into a ctx used so, or handed to functions that refer to their ctx only to do
// the same (by their bodies here, by their facts elsewhere). A root context used so bounds no
// work: a log line's fields or a trace ID are lost, not a deadline. A function that never
// refers to its ctx (a stub, an in-memory double) is not one: what a call of it means to do
// with a ctx is not known.
func (r *Result) OnlyCarries(v ssa.Value) bool {
	r.igMu.Lock()
	defer r.igMu.Unlock()
	ig := r.ignorer()
	return ig.in(carries, func() bool { return ig.noWork(v, 0) })
}

// OnlyInspects reports whether the ctx value v, of a function of this package, is handed only
// to functions that ask it whether it is done, to classify an error after their work (a
// connection cache deciding whether a failure was the caller's deadline), and do nothing else
// with it. A root context used so bounds nothing and carries nothing: no deadline is lost.
func (r *Result) OnlyInspects(v ssa.Value) bool {
	r.igMu.Lock()
	defer r.igMu.Unlock()
	ig := r.ignorer()
	return ig.in(inspects, func() bool { return ig.noWork(v, 0) })
}

// OnlyDials reports whether the ctx value v, of a function of this package, is used only to
// dial connections kept where they are dialled (a connection cache's map, a field), directly or
// through helpers that keep them so (s.tmc.WithTablet(context.Background(), addr, fn), whose
// cache dials on first use and asks the ctx, after fn ran with the request's, whether it ended
// the call), to read values from it, or to ask it whether it is done. A root context used so
// bounds a connection every later request shares, not work done for this one.
func (r *Result) OnlyDials(v ssa.Value) bool {
	r.igMu.Lock()
	defer r.igMu.Unlock()
	ig := r.ignorer()
	return ig.in(stores, func() bool { return ig.noWork(v, 0) })
}

// FuncCarriesOnly reports whether fn, a function with a body, refers to its ctx only to carry
// values (the carries mode): by its body in this package, by its fact in another.
// LookupContext(ctx, addr), which logs a miss with the ctx, loses no deadline beside Lookup(addr).
func (r *Result) FuncCarriesOnly(fn *types.Func) bool {
	r.igMu.Lock()
	defer r.igMu.Unlock()
	ig := r.ignorer()
	return ig.in(carries, func() bool { return ig.calleeNoWork(nil, fn) })
}

// InterfaceNoWork reports whether m, a method of an interface, does no work with its ctx
// whatever implementation a call of it reaches: for an interface of a dependency, by the fact its
// package exports (every implementation it declares only reads values from the ctx or never
// refers to it: a logger's DebugContext attaching the trace); for one of the user's code, every
// implementation in sight (generated mocks left out) does no work with it. None in sight, and a
// call may do anything.
func (r *Result) InterfaceNoWork(m *types.Func) bool {
	recv := m.Signature().Recv()
	if recv == nil || !types.IsInterface(recv.Type()) {
		return false
	}
	if m.Pkg() != r.pass.Pkg && r.pass.ImportObjectFact(m, new(ignoresCtx)) {
		return true
	}
	r.igMu.Lock()
	defer r.igMu.Unlock()
	ig := r.ignorer()
	return ig.in(anyNoWork, func() bool { return ig.targetsNoWork(ig.resolver().Implementations(m), false) })
}

// CallIgnoresCtx reports whether the call does no work with the ctx it is given: its callee
// ignores its ctx (IgnoresCtx), the options the call writes out switch off all the callee does
// with it (ctxorigin.OptionsSwitchOff: errors.E(ctx, WithoutEvent(), …)), for an interface
// call every implementation in sight ignores it (an interface of the user's code whose one
// store reads an in-memory cache), and for a call through a function value every function it
// may hold, all in sight, does (valueNoWork). No implementation in sight, and the call may do
// anything.
func (r *Result) CallIgnoresCtx(common *ssa.CallCommon) bool {
	fn := ctxorigin.Callee(common)
	if !common.IsInvoke() && fn != nil {
		return r.IgnoresCtx(fn) || ctxorigin.OptionsSwitchOff(common)
	}
	r.igMu.Lock()
	defer r.igMu.Unlock()
	ig := r.ignorer()
	if fn == nil {
		return ig.in(anyNoWork, func() bool { return ig.valueNoWork(common) })
	}
	return ig.in(anyNoWork, func() bool { return ig.invokeNoWork(common) })
}

// CallDoesNoWork reports whether the call does no work with the ctx it is given, as
// CallIgnoresCtx does, but for an interface call by every concrete type its receiver may hold,
// all of them in sight (callees.Dynamic), not the implementations in sight: an in-memory store
// beside the interface says nothing of the database store main wires in.
func (r *Result) CallDoesNoWork(common *ssa.CallCommon) bool {
	return r.callNoWork(anyNoWork, common, true)
}

// CallCarriesOnly reports whether the call refers to the ctx it is given only to carry values
// (the carries mode: read from, logged or measured with): its callee, by its body here or its
// fact elsewhere; for an interface call, every concrete type its receiver may hold, all of them
// in sight (callees.Dynamic: a field only ever set to the package's own values). Implementations
// in sight are not enough: a no-op that logs may sit beside the interface while main wires in
// the store that does the work. A callee that never refers to its ctx (a stub) is not one: what
// a call of it means to do with a ctx is not known.
func (r *Result) CallCarriesOnly(common *ssa.CallCommon) bool {
	return r.callNoWork(carries, common, true)
}

// callNoWork reports whether the call does no work with the ctx it is given in mode m: its
// callee if called statically, by its body here or its fact elsewhere; for an interface call,
// every concrete type its receiver may hold when all are in sight (callees.Dynamic), or, unless
// heldOnly, every implementation in sight (invokeNoWork).
func (r *Result) callNoWork(m use, common *ssa.CallCommon, heldOnly bool) bool {
	r.igMu.Lock()
	defer r.igMu.Unlock()
	ig := r.ignorer()
	return ig.in(m, func() bool {
		if common.IsInvoke() && heldOnly {
			ts := ig.resolver().Dynamic(common)
			return ts != nil && ig.targetsNoWork(ts, true)
		}
		if common.IsInvoke() {
			return ig.invokeNoWork(common)
		}
		callee := ctxorigin.Callee(common)
		if _, static := common.Value.(*ssa.Function); !static || callee == nil {
			return false
		}
		return ig.calleeNoWork(nil, callee)
	})
}

// initsOnly is the fact of a function whose work with its ctx is only initialisation of
// shared state: done on its first use, or in a literal a shared sync.Once's Do runs (the
// initializes mode).
type initsOnly struct{}

// AFact marks initsOnly as an analysis fact.
func (*initsOnly) AFact() {}

func (*initsOnly) String() string { return "initialises only" }

// initOnly reports whether call is made only to initialise shared state once: in a literal
// the Do of a shared sync.Once runs (a local Once, or a sync.OnceFunc made on each call, runs
// every call), or only on the first use of the state (ctxorigin.FirstUseOnly: in the branch of the test, or past its return).
func initOnly(call ssa.CallInstruction) bool {
	return ctxorigin.InSharedOnce(call.Parent()) || ctxorigin.FirstUseOnly(call)
}

// initOnly is initOnly for the walker. For a call in a request scope (a handler, or a literal
// made in one), the first use must be of the server's own state, and the call in the branch of
// its test (ctxorigin.FirstUseOfServer): a field of the request's own objects (a record the
// handler loaded, checked and then updated) is no first use of anything.
func (ig *ignoring) initOnly(call ssa.CallInstruction) bool {
	if ig.res.info.Scopes.IsScope(call.Parent()) {
		return ctxorigin.InSharedOnce(call.Parent()) || ctxorigin.FirstUseOfServer(call)
	}
	return initOnly(call)
}

// OnlyInitializes reports whether the ctx value v, made in a request scope of this package, is
// only handed to calls that do no work with it (the leaves mode, as OnlyLeaves) or whose work
// with it is at most initialisation of state the server keeps: a method called on the
// server's own state (ctxorigin.ServerState: s.store, a package variable) that works with its
// ctx only on the first use of state it keeps (callNoWork in the initializes mode),
// s.store.ID(context.Background()) where ID queries once and keeps the ID in an atomic field.
// An interface call counts only when every value its receiver may hold is in sight; a call
// through a function value is not judged. An object the request makes (a record it loaded) is
// no shared state: its first use is the request's work. A root used so bounds what every later
// caller shares, built once for whoever came first: no caller's deadline is lost.
func (r *Result) OnlyInitializes(v ssa.Value) bool {
	refs := v.Referrers()
	if refs == nil {
		return false
	}
	r.igMu.Lock()
	defer r.igMu.Unlock()
	ig := r.ignorer()
	handed := false
	for _, ref := range *refs {
		switch ref := ref.(type) {
		case *ssa.DebugRef:
		case *ssa.Call:
			common := ref.Common()
			if common.Value == v {
				return false
			}
			handed = true
			if ig.in(leaves, func() bool { return ig.callNoWork(ref, v, 0) }) {
				continue
			}
			recv := ctxorigin.ReceiverOf(common)
			if recv == nil || !ctxorigin.ServerState(recv, ref.Parent()) || typesutil.ReturnsContext(common.Signature()) ||
				common.IsInvoke() && ig.resolver().Dynamic(common) == nil ||
				!ig.in(initializes, func() bool { return ig.callNoWork(ref, v, 0) }) {
				return false
			}
		default:
			return false
		}
	}
	return handed
}

// CallInitializesOnly reports whether the call's work with the ctx it is given is at most
// initialisation of shared state (the initializes mode): its callee, or for an interface call
// every implementation in sight, does no work with its ctx or does it only on the first use of
// state it then keeps (a store reading its ID once and keeping it in an atomic field), or in a
// literal a shared sync.Once's Do runs. A root handed to it bounds what every later caller shares, built once
// for whoever came first: no caller's deadline is lost.
func (r *Result) CallInitializesOnly(common *ssa.CallCommon) bool {
	return r.callNoWork(initializes, common, false)
}

// activeKey is a question being answered: fn, in one memo (mode and strictness).
type activeKey struct {
	fn   *ssa.Function
	memo int
}

// noCycle is ignoring.low when no assumption was used.
const noCycle = int(^uint(0) >> 1)

// ignoresParams reports whether fn takes a ctx and none of its ctx parameters reaches work (in
// the walker's mode: refers to it, only to carry values or to measure). A cycle of calls that
// hand the ctx around and do nothing else with it does no work: a function met again while it
// is being answered is assumed to do none, and a yes that used the assumption is kept only
// once the function assumed about is answered yes too (a greatest fixpoint: one that does work
// anywhere on the cycle makes every function on it a no). A logger's Error(ctx) that hands ctx
// to a helper calling Error again through the Logger interface.
func (ig *ignoring) ignoresParams(fn *ssa.Function) bool {
	idx := 2*int(ig.mode) + btoi(ig.strict)
	memo := ig.memo[idx]
	if v, ok := memo[fn]; ok {
		return v
	}
	if fn.Blocks == nil {
		return false
	}
	key := activeKey{fn, idx}
	if at, ok := ig.active[key]; ok {
		if !ig.strict {
			// A call back into fn is a loop: asking the ctx whether it is done may be what
			// stops it (a recursive walk checking ctx.Err()) — work.
			return ig.strictly(func() bool { return ig.ignoresParams(fn) })
		}
		ig.low = min(ig.low, at)
		return true
	}
	if low, ok := ig.tentative[key]; ok {
		// A yes already waiting on a question still being answered: the same, not again.
		ig.low = min(ig.low, low)
		return true
	}
	at := len(ig.active)
	ig.active[key] = at
	outer, pending := ig.low, len(ig.pending)
	ig.low = noCycle
	found, ok := false, true
	for _, p := range fn.Params {
		if typesutil.IsContext(p.Type()) {
			found = true
			ok = ok && ig.noWork(p, 0)
		}
	}
	delete(ig.active, key)
	ok = found && ok && (ig.mode == anyNoWork || ig.mode == initializes || refersToCtx(fn))
	switch {
	case !ok || ig.low >= at:
		// Settled: a no needs no assumption; a yes that assumed only about fn, or nothing,
		// stands, and so do the yes answers that waited on fn. After a no, those are dropped:
		// they may have assumed fn's yes.
		for _, k := range ig.pending[pending:] {
			if ok {
				ig.memo[k.memo][k.fn] = true
			}
			delete(ig.tentative, k)
		}
		ig.pending = ig.pending[:pending]
		memo[fn] = ok
		ig.low = outer
	default:
		// A yes that assumed about a question further out: it waits for that answer, and so
		// do the ones that waited on fn.
		low := ig.low
		ig.pending = append(ig.pending, key)
		for _, k := range ig.pending[pending:] {
			ig.tentative[k] = low
		}
		ig.low = min(outer, low)
	}
	return ok
}

func btoi(b bool) int {
	if b {
		return 1
	}
	return 0
}

// noWork reports whether the ctx value v is used only in ways that do no work with it:
// compared, read from (ctxorigin.IsReader: logging, metadata, span lookups, metrics), derived
// into a ctx that itself does no work (a span started and its ctx dropped), or passed to a
// function of the package, or of another with the fact, that ignores its ctx, or captured by a
// function literal that uses it only so. Any other use (stored, returned, sent, converted,
// handed to a library) may be work.
func (ig *ignoring) noWork(v ssa.Value, depth int) bool {
	if depth > 8 {
		return false
	}
	refs := v.Referrers()
	if refs == nil {
		return true
	}
	for _, ref := range *refs {
		if call, ok := ref.(ssa.CallInstruction); ok && ig.mode == initializes && ig.initOnly(call) {
			continue
		}
		switch ref := ref.(type) {
		case *ssa.DebugRef, *ssa.BinOp:
		case *ssa.Call:
			if !ig.callNoWork(ref, v, depth) {
				return false
			}
		case *ssa.Defer:
			if !ig.deferredNoWork(ref.Common(), v, depth) {
				return false
			}
		case *ssa.MakeClosure:
			// Captured by a function literal: what the literal does with it is what counts,
			// whenever, and by whomever, the literal is run.
			if !ig.capturedNoWork(ref, v, depth) {
				return false
			}
		case *ssa.Store:
			// Spilled to the cell a function literal captures it by (a parameter a literal
			// refers to): what is done with the cell's loads is what counts. Or kept in a field
			// the package only reads values from (a logger's entry: fields.go).
			if fa, ok := ref.Addr.(*ssa.FieldAddr); ok && ref.Val == v && ig.storedForReads(fa, v, depth) {
				continue
			}
			if cell, ok := ref.Addr.(*ssa.Alloc); !ok || ref.Val != v || !ig.cellNoWork(cell, depth) {
				return false
			}
		default:
			return false
		}
	}
	return true
}

// capturedNoWork reports whether the function literal mc makes does no work with v, a ctx it
// captures: each of its free variables bound to v is used only so.
func (ig *ignoring) capturedNoWork(mc *ssa.MakeClosure, v ssa.Value, depth int) bool {
	return ig.boundNoWork(mc, v, func(fv *ssa.FreeVar) bool { return ig.noWork(fv, depth+1) })
}

// boundNoWork reports whether each free variable of the literal mc makes that is bound to v
// satisfies ok.
func (ig *ignoring) boundNoWork(mc *ssa.MakeClosure, v ssa.Value, ok func(*ssa.FreeVar) bool) bool {
	fn, isFn := mc.Fn.(*ssa.Function)
	if !isFn || fn.Blocks == nil || len(fn.FreeVars) != len(mc.Bindings) {
		return false
	}
	for _, fv := range valueflow.BoundTo(mc, v) {
		if !ok(fv) {
			return false
		}
	}
	return true
}

// cellNoWork reports whether the ctx held in cell, a local's heap cell (an Alloc, or the free
// variable a literal captures it by), is used only in ways that do no work: the cell is written,
// and what is loaded from it does no work, here or in the literals that capture it.
func (ig *ignoring) cellNoWork(cell ssa.Value, depth int) bool {
	if depth > 8 {
		return false
	}
	for _, ref := range *cell.Referrers() {
		switch ref := ref.(type) {
		case *ssa.DebugRef:
		case *ssa.Store:
			if ref.Addr != cell {
				return false // the cell's address itself stored away
			}
		case *ssa.UnOp:
			if ref.Op != token.MUL || !ig.noWork(ref, depth+1) {
				return false
			}
		case *ssa.MakeClosure:
			if !ig.boundNoWork(ref, cell, func(fv *ssa.FreeVar) bool { return ig.cellNoWork(fv, depth+1) }) {
				return false
			}
		default:
			return false
		}
	}
	return true
}

// callNoWork reports whether the call, given the ctx v, does no work with it.
func (ig *ignoring) callNoWork(call *ssa.Call, v ssa.Value, depth int) bool {
	if !ig.strict && ctxorigin.Looped(call) {
		// Made in a loop: asking the ctx whether it is done, here or in the callee, may be
		// what stops the loop — work.
		return ig.strictly(func() bool { return ig.callNoWork(call, v, depth) })
	}
	common := call.Common()
	if common.Value == v && !common.IsInvoke() {
		return false // a ctx used as the function called: not a ctx
	}
	callee := ctxorigin.Callee(common) // for a method of the ctx itself (ctx.Value), that method
	if ig.inspection(call, v) {
		return true
	}
	if ig.mode == inspects {
		return ig.staticCallNoWork(call, callee)
	}
	if ig.mode == dials || ig.mode == stores {
		if typesutil.ReturnsContext(common.Signature()) {
			// A bound for the dial (context.WithTimeout(ctx, dialTimeout)): what is done with
			// the derived ctx is what counts.
			return ig.derivedNoWork(call, depth)
		}
		if ctxorigin.IsReader(callee) {
			return true
		}
		if ig.mode == stores {
			// A helper that stores its connections itself, or a dial whose connection is
			// stored here for later requests — once: a dial retried in a loop may wait on the
			// ctx for ever.
			return ig.staticCallNoWork(call, callee) || ctxorigin.IsDial(callee) && !ctxorigin.Looped(call) && storesConn(call)
		}
		return (ctxorigin.IsDial(callee) || ig.staticCallNoWork(call, callee)) && keepsConn(call) ||
			ig.in(stores, func() bool { return ig.staticCallNoWork(call, callee) })
	}
	if ig.mode == measures && (ctxorigin.IsMeasurement(callee) || ctxorigin.IsLevelQuery(callee)) || ig.mode != measures && ctxorigin.IsReader(callee) {
		return true
	}
	if _, static := common.Value.(*ssa.Function); static && callee != nil {
		if k := slices.Index(common.Args, v); k >= 0 && ig.paramNoWork(callee, k, depth) {
			return true // only read there: CopyTraceContext(context.Background(), ctx)
		}
	}
	if typesutil.ReturnsContext(common.Signature()) {
		return ig.derivedNoWork(call, depth)
	}
	if common.IsInvoke() {
		return ig.invokeNoWork(common)
	}
	if callee == nil {
		return ig.valueNoWork(common)
	}
	return ig.calleeNoWork(call, callee)
}

// valueNoWork reports whether a call through a function value (a func field, a variable) does
// no work with its ctx: every function the value may hold is in sight (callees.Resolver.Held:
// those the package stores into the field, variable or container it is read from, which no
// other package can store into) and each does none — by its body here, by its fact elsewhere: a
// verifier whose fetchKeys field the constructor sets to a library function that never uses its
// ctx. A value made out of sight (a parameter, a function another package returns) may do
// anything, and so may an exported field the package sets only to a no-op: the package wiring
// the server may put its store's wait there.
func (ig *ignoring) valueNoWork(common *ssa.CallCommon) bool {
	ts := ig.resolver().Held(common.Value)
	// A method value or expression of an interface (s.load = st.Load) runs the method of
	// whatever the interface holds, not the implementations a fact names.
	abstract := slices.ContainsFunc(ts, func(t callees.Target) bool {
		return t.Obj != nil && typesutil.IsInterfaceMethod(t.Obj)
	})
	return ts != nil && !abstract && ig.targetsNoWork(ts, false)
}

// deferredNoWork reports whether a deferred call, given the ctx v, only reads values from it,
// as it returns (defer log.Debug(ctx, "done")): a reader, or a function that refers to its ctx
// only to carry values. Asking the ctx anything else then, or handing it to work, is work.
func (ig *ignoring) deferredNoWork(common *ssa.CallCommon, v ssa.Value, depth int) bool {
	if ig.mode != anyNoWork && ig.mode != initializes && ig.mode != carries && ig.mode != leaves || common.Value == v || common.IsInvoke() ||
		typesutil.ReturnsContext(common.Signature()) {
		return false
	}
	callee := ctxorigin.Callee(common)
	if callee == nil {
		return false
	}
	if ctxorigin.IsReader(callee) {
		return true
	}
	if k := slices.Index(common.Args, v); k >= 0 && ig.paramNoWork(callee, k, depth) {
		return true
	}
	return ig.in(carries, func() bool { return ig.calleeNoWork(nil, callee) })
}

// calleeNoWork reports whether callee, called by call, does no work with its ctx: by its body
// in this package, by its fact in another. A callee that only asks its ctx whether it is done
// does work when called in a loop (callNoWork).
func (ig *ignoring) calleeNoWork(call *ssa.Call, callee *types.Func) bool {
	if callee.Pkg() == ig.pass.Pkg {
		// A function or method of the package, also called through a method value: its body.
		if fn := ig.res.info.Pkg.Prog.FuncValue(callee); fn != nil {
			return ig.ignoresParams(fn)
		}
		return false
	}
	return ig.importedNoWork(callee)
}

// inspection reports whether call asks v, a ctx, whether it is done — Err or Done —
// only to compare the answer with nil, in a function without a loop, when the walker allows
// it: a predicate that classifies an error after the work. Nothing such a function does can be
// stopped by the answer; a loop's check is work (ctxless counts it as honouring the ctx).
func (ig *ignoring) inspection(call *ssa.Call, v ssa.Value) bool {
	if ig.strict || ig.mode == measures || ctxorigin.AsksDone(call.Common()) != v {
		return false
	}
	for _, ref := range *call.Referrers() {
		switch ref.(type) {
		case *ssa.BinOp, *ssa.DebugRef:
		default:
			return false
		}
	}
	for _, b := range call.Parent().Blocks {
		if ctxorigin.OnCycle(b, nil) {
			return false
		}
	}
	return true
}

// keepsConn reports whether the connection a dial returns (its first result) is returned or
// stored — kept for later requests — rather than dropped: a dial whose connection is dropped is
// a probe, work done for the caller.
func keepsConn(call *ssa.Call) bool {
	conn := connOf(call)
	return conn != nil && ctxorigin.Kept(conn)
}

// storesConn reports whether the connection a dial returns is stored where it is dialled, for
// later requests (ctxorigin.KeptHere: a cache's map, a field of the receiver), not only
// returned, and not closed there.
func storesConn(call *ssa.Call) bool {
	conn := connOf(call)
	return conn != nil && ctxorigin.KeptHere(conn)
}

// connOf returns the connection a dial returns, its first result, or nil if it is not used.
func connOf(call *ssa.Call) ssa.Value {
	if _, tuple := call.Type().(*types.Tuple); !tuple {
		return call
	}
	for _, ref := range *call.Referrers() {
		if ext, ok := ref.(*ssa.Extract); ok && ext.Index == 0 {
			return ext
		}
	}
	return nil
}

// dialsOnly is the fact of a function that refers to its ctx only to dial with it and keeps
// the connection (a dial helper: GrpcDial(ctx, addr) returning grpc.DialContext(ctx, addr,
// opts...)), or to read values from it. Stores: it stores every connection it dials itself
// (a connection cache's dial on first use), so its callers need not keep what it returns.
type dialsOnly struct{ Stores bool }

// AFact marks dialsOnly as an analysis fact.
func (*dialsOnly) AFact() {}

func (f *dialsOnly) String() string {
	if f.Stores {
		return "dials only, stores"
	}
	return "dials only"
}

// DialsOnly reports whether fn is a dial (ctxorigin.IsDial) or a function of the user's code
// that refers to its ctx only to dial with it: a root given to it bounds a connection attempt
// whose connection later requests share, not work done for the caller.
func (r *Result) DialsOnly(fn *types.Func) bool {
	if fn == nil {
		return false
	}
	if ctxorigin.IsDial(fn) {
		return true
	}
	if fn.Pkg() != r.pass.Pkg {
		return r.pass.ImportObjectFact(fn.Origin(), new(dialsOnly))
	}
	body := r.body(fn)
	if body == nil {
		return false
	}
	r.igMu.Lock()
	defer r.igMu.Unlock()
	ig := r.ignorer()
	return ig.in(dials, func() bool { return ig.ignoresParams(body) }) // memoised: answered for the fact already
}

// staticCallNoWork reports, in the inspects, dials and stores modes, whether call is a static call of a
// function of the user's code that does with its ctx only what the mode allows: by its body
// here, by its fact in another package.
func (ig *ignoring) staticCallNoWork(call *ssa.Call, callee *types.Func) bool {
	common := call.Common()
	if common.IsInvoke() || callee == nil || typesutil.ReturnsContext(common.Signature()) {
		return false
	}
	if _, static := common.Value.(*ssa.Function); !static {
		return false
	}
	return ig.calleeNoWork(call, callee)
}

// invokeNoWork reports whether every implementation an interface call may reach (of an
// interface of the user's code, among the types the package can see: callees; generated mocks
// left out) does no work with its ctx — a package-level resolver whose implementations all
// read the ctx's values. No implementation in sight, and the call may do anything.
func (ig *ignoring) invokeNoWork(common *ssa.CallCommon) bool {
	// Every value the receiver may hold in sight (callees.Dynamic: a package variable only ever
	// set to the package's own logger): no store sits out of sight at the end of a chain, so a
	// yes that rests on a cycle (the logger's Error calling back into Error through the
	// variable) stands like any other.
	if ts := ig.resolver().Dynamic(common); ts != nil {
		return ig.targetsNoWork(ts, true)
	}
	return ig.targetsNoWork(ig.resolver().Targets(common), false)
}

// targetsNoWork reports whether every production target (generated mocks left out), of this
// package by its body or of another by its fact, does no work with its ctx in the walker's
// mode; none is not "every". Nor is a set whose every yes rests on the assumption a cycle makes
// (ignoresParams): implementations that only pass the call on to the same interface (a
// decorator over a store held in a field) say nothing of the one at the end of the chain, out of
// sight; one target in sight that settles it (a logger that only writes) does. When the
// targets are complete (every value the receiver may hold is in sight), the cycle is the whole
// story and needs no settling.
func (ig *ignoring) targetsNoWork(ts []callees.Target, complete bool) bool {
	settled := complete
	// In the leaves mode, when every value the receiver may hold is in sight, a target that
	// never refers to its ctx leaves it too: no store wired in elsewhere sits behind the call,
	// so a method that never looks at its ctx is all the call does with it.
	unlooked := complete && ig.mode == leaves
	all := callees.EveryProduction(ts, func(t callees.Target) bool {
		if t.Fn == nil {
			ok := t.Obj != nil && t.Obj.Pkg() != ig.pass.Pkg && (ig.importedNoWork(t.Obj) || unlooked && unreferred(ig.pass, t.Obj))
			settled = settled || ok
			return ok
		}
		outer := ig.low
		ig.low = noCycle
		ok := ig.ignoresParams(t.Fn) || unlooked && t.Obj != nil && unreferred(ig.pass, t.Obj)
		settled = settled || ok && ig.low == noCycle
		ig.low = min(outer, ig.low)
		return ok
	})
	return all && settled
}

// resolver returns the walker's resolver of calls, made on first use.
func (ig *ignoring) resolver() *callees.Resolver {
	if ig.targets == nil {
		ig.targets = ig.res.NewCallees()
	}
	return ig.targets
}

// importedNoWork reports whether fn, a function of another package, is known by its fact to do
// no work with its ctx, in the walker's mode.
func (ig *ignoring) importedNoWork(fn *types.Func) bool {
	if ig.mode == dials || ig.mode == stores {
		var f dialsOnly
		return ig.pass.ImportObjectFact(fn.Origin(), &f) && (ig.mode == dials || f.Stores)
	}
	if ig.mode == initializes && ig.pass.ImportObjectFact(fn.Origin(), new(initsOnly)) {
		return true
	}
	var f ignoresCtx
	if !ig.pass.ImportObjectFact(fn.Origin(), &f) {
		return false // a library's function has the fact only when it reads values or never refers to its ctx (exportReaders)
	}
	if ig.strict && f.Inspects {
		return false
	}
	switch ig.mode {
	case carries, leaves:
		return f.Reads
	case measures:
		return f.Measures
	case inspects:
		return f.State
	}
	return true
}

// derivedNoWork reports whether the ctx results of call, which returns a ctx derived from its
// argument, do no work.
func (ig *ignoring) derivedNoWork(call *ssa.Call, depth int) bool {
	if _, tuple := call.Type().(*types.Tuple); !tuple {
		return ig.noWork(call, depth+1)
	}
	refs := call.Referrers()
	if refs == nil {
		return true
	}
	for _, ref := range *refs {
		ext, ok := ref.(*ssa.Extract)
		if !ok {
			return false
		}
		if typesutil.IsContext(ext.Type()) && !ig.noWork(ext, depth+1) {
			return false
		}
	}
	return true
}

// refersToCtx reports whether some ctx parameter of fn is referred to in its body.
func refersToCtx(fn *ssa.Function) bool {
	for _, p := range fn.Params {
		if typesutil.IsContext(p.Type()) && referred(p) {
			return true
		}
	}
	return false
}

// referred reports whether the parameter p is referred to in its function's body: a parameter
// never used says nothing of what a call means to do with what it is given.
func referred(p *ssa.Parameter) bool {
	for _, ref := range *p.Referrers() {
		if _, debug := ref.(*ssa.DebugRef); !debug {
			return true
		}
	}
	return false
}
