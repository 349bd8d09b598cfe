package ctxbackground

import (
	_ "embed"
	"fmt"
	"go/types"
	"slices"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/ssa"

	"github.com/deadlinelint/deadlinelint/internal/callees"
	"github.com/deadlinelint/deadlinelint/internal/ctxorigin"
	"github.com/deadlinelint/deadlinelint/internal/ctxssa"
	"github.com/deadlinelint/deadlinelint/internal/report"
	"github.com/deadlinelint/deadlinelint/internal/reqctx"
	"github.com/deadlinelint/deadlinelint/internal/ruledoc"
	"github.com/deadlinelint/deadlinelint/internal/scope"
	"github.com/deadlinelint/deadlinelint/internal/typesutil"
)

const name = "ctxbackground"

//go:embed doc.go
var doc string

// Analyzer reports context.Background() and context.TODO() in request scopes, directly or
// through the functions they call.
var Analyzer = &analysis.Analyzer{
	Name:      name,
	Doc:       ruledoc.MustExtract(doc, name),
	URL:       ruledoc.URL(name),
	Requires:  []*analysis.Analyzer{ctxssa.Analyzer},
	Run:       run,
	FactTypes: []analysis.Fact{new(dropsCtx), new(returnsDrop), new(fieldRoots)},
}

// Flags.
var (
	external   bool // summarise the standard library and dependency modules too
	transitive = true
)

func init() {
	Analyzer.Flags.BoolVar(&external, "external", false,
		"also follow helpers in the standard library and in dependency modules (slower; off: only the analysed module's code)")
	Analyzer.Flags.BoolVar(&transitive, "transitive", true,
		"follow calls from request scopes into helpers that replace the ctx with a root context (off: only roots created in request scopes)")
}

func run(pass *analysis.Pass) (any, error) {
	res := pass.ResultOf[ctxssa.Analyzer].(*ctxssa.Result)
	rep := report.New(pass, res, name)
	defer rep.Finish()
	if !res.Context && !(transitive && importsChains(pass)) || res.External && !external || !transitive && !res.MayHaveScopes() {
		return nil, nil
	}
	info := res.SSA()
	drops := newDropper(pass, res, info, rep.Suppresses)
	if transitive {
		drops.exportFacts()
	}
	if !res.MayHaveScopes() {
		return nil, nil
	}
	if transitive {
		drops.checkScopes(rep.Report)
	}
	reached := sinksByRoot(info)
	for _, fn := range info.Funcs {
		sc := info.Scopes.Of(fn)
		if sc == nil || !drops.runsForRequest(fn) {
			continue
		}
		for _, call := range rootCalls(fn) {
			if deadlineWrapper(call) != "" && ctxorigin.InDeferred(fn) || ctxorigin.AfterDone(call) || ctxorigin.FirstUseOfServer(call) {
				continue // a bounded fresh ctx for deferred cleanup (the idiom), work after the caller gave up, or on the first use of shared state only
			}
			if deadlineWrapper(call) != "" && ctxorigin.AfterFailure(call) {
				continue // a fresh budget for what runs because the work failed, as it returns or ends: cleanup after the failure
			}
			if tiedToRequest(info, call) {
				continue // made cancellable and cancelled with the request (context.AfterFunc(ctx, cancel))
			}
			if drops.onlyStartsGoroutines(reached[call]) {
				continue // given to helpers that only start goroutines with it: lifetimes of their own
			}
			if res.OnlyLeaves(call) || res.OnlyInspects(call) || res.OnlyDials(call) {
				continue // it only carries values (a log line's, a metric record's), is handed to functions that never look at it, is only asked whether it is done, or only dials a connection kept for later requests
			}
			if res.OnlyInitializes(call) {
				continue // handed only to work done on the first use of shared state (an ID read once and kept): initialisation for every later caller
			}
			if idleOnly(reached[call]) {
				continue // an object's idle ctx, reset through the same setter after its work (a pooled applier going back to its pool)
			}
			rep.Report(diagnostic(pass, res, sc, call, reached[call]))
		}
	}
	return nil, nil
}

// importsChains reports whether a package pass's package imports has a fact of this rule: a
// function that works with a root of its own, returns one, or keeps one in a field. A package
// that imports no context package has no ctx of its own, but its functions can still call such
// a function (a validation helper returning errs.Legacy(msg), whose events.Write runs on
// context.TODO()), and its importers learn of the root only through its facts.
func importsChains(pass *analysis.Pass) bool {
	direct := make(map[*types.Package]bool)
	for _, p := range pass.Pkg.Imports() {
		direct[p] = true
	}
	for _, f := range pass.AllObjectFacts() {
		switch f.Fact.(type) {
		case *dropsCtx, *returnsDrop, *fieldRoots:
			if direct[f.Object.Pkg()] {
				return true
			}
		}
	}
	return false
}

// idleOnly reports whether every sink is a ctx setter handed an object's idle ctx, with nothing
// done with the object after it but keeping it (ctxorigin.IdleReset):
// a.SetContext(context.Background()) after a.SetContext(ctx) and the work, before a goes back
// to its pool. The ctx set before its next work decides. No sinks is not "only".
func idleOnly(sinks []ctxorigin.Sink) bool {
	for _, s := range sinks {
		if !ctxorigin.IdleReset(s) {
			return false
		}
	}
	return len(sinks) > 0
}

// tiedToRequest reports whether the root call is used only as the parent of a
// context.WithCancel whose cancel is registered with context.AfterFunc on the request's ctx
// (ctxorigin.TiedTo): the child stops when the request does, without its deadline's value — a
// long-lived follow that must not carry a short client timeout down, but stops when the client goes.
// The parent may carry values first (context.WithCancel(tenant.With(context.Background(), org)):
// context.WithValue, or a helper that only adds values to the root and returns it, doing
// nothing else with it — not one that makes an RPC or starts a goroutine with it first — and
// returns a ctx derived from the root alone, with no deadline): what counts is what is done with
// each ctx on the way.
func tiedToRequest(info *ctxssa.Info, root *ssa.Call) bool { return tiedFrom(info, root, root, 0) }

func tiedFrom(info *ctxssa.Info, root *ssa.Call, v ssa.Value, depth int) bool {
	refs := v.Referrers()
	if refs == nil || depth > 3 {
		return false
	}
	tied := false
	for _, ref := range *refs {
		switch ref := ref.(type) {
		case *ssa.DebugRef:
		case *ssa.Call:
			if len(ref.Call.Args) == 0 || ref.Call.Args[0] != v {
				return false
			}
			if x := ctxorigin.TiedTo(ref); x != nil && info.FromRequest(x) {
				tied = true
				continue
			}
			if !info.Origins.Wraps(ref, v) || !carriesRoot(info, root, ref) || !tiedFrom(info, root, ref, depth+1) {
				return false
			}
			tied = true
		default:
			return false
		}
	}
	return tied
}

// carriesRoot reports whether call returns one ctx, derived from root and nothing else, with no
// deadline: root with values added (context.WithValue, a helper wrapping it).
func carriesRoot(info *ctxssa.Info, root, call *ssa.Call) bool {
	if !typesutil.IsContext(call.Type()) {
		return false
	}
	set := info.Origins.Of(call)
	return len(set) > 0 && !slices.ContainsFunc(set, func(o ctxorigin.Origin) bool {
		return o.Kind != ctxorigin.Root || o.Call != root || o.Deadline
	})
}

// sinksByRoot returns, for every root context created in the package, the ctx-taking calls
// of request scopes it reaches.
func sinksByRoot(info *ctxssa.Info) map[*ssa.Call][]ctxorigin.Sink {
	out := make(map[*ssa.Call][]ctxorigin.Sink)
	for _, fn := range info.Funcs {
		if info.Scopes.Of(fn) == nil {
			continue
		}
		for _, s := range ctxorigin.Sinks(fn) {
			for _, o := range info.Origins.Of(s.Ctx) {
				if o.Kind == ctxorigin.Root && o.Call != nil { // made here, not in another package
					out[o.Call] = append(out[o.Call], s)
				}
			}
		}
	}
	return out
}

// onlyStartsGoroutines reports whether every sink hands its ctx only to goroutines its callee
// starts (startsOnly): the helper gives the work a lifetime of its own, and the handler's root
// is that lifetime — the request ctx would stop it as the handler returns. No sinks is not
// "only".
func (d *dropper) onlyStartsGoroutines(sinks []ctxorigin.Sink) bool {
	for _, s := range sinks {
		if !d.startsOnly(s) {
			return false
		}
	}
	return len(sinks) > 0
}

// startsOnly reports whether the sink s is a call whose callee uses the ctx it is given only
// in goroutines it starts (an exit monitor, a watcher, a waiter returning a channel), as
// ctxssa tells from its syntax or its fact; for an interface method, when every implementation
// in sight does, or every value the receiver may hold when all are in sight (callees.Invoked;
// none in sight is not "every"). A callee of the package that uses it only to
// make the lifetime of an object, keeping the cancel for the object's Stop (KeptByCallee), gives
// the work a lifetime of its own too.
func (d *dropper) startsOnly(s ctxorigin.Sink) bool {
	if _, isCall := s.Instr.(*ssa.Call); !isCall {
		return false
	}
	if !s.Instr.Common().IsInvoke() {
		return s.Func != nil && (d.res.StartsOnly(s.Func) || d.res.KeptByCallee(s))
	}
	return callees.EveryProduction(d.targets.Invoked(s.Instr.Common()), func(t callees.Target) bool {
		return t.Obj != nil && d.res.StartsOnly(t.Obj)
	})
}

// rootCalls returns the calls to context.Background and context.TODO in fn's own body whose
// result is used as a context (not merely compared), other than those replacing no caller's
// ctx (ctxorigin.ReplacesNoCtx).
func rootCalls(fn *ssa.Function) []*ssa.Call {
	var out []*ssa.Call
	for _, b := range fn.Blocks {
		for _, instr := range b.Instrs {
			if call, ok := instr.(*ssa.Call); ok && ctxorigin.IsRootCall(ctxorigin.Callee(call.Common())) &&
				!onlyCompared(call) && !ctxorigin.ReplacesNoCtx(call) {
				out = append(out, call)
			}
		}
	}
	return out
}

// onlyCompared reports whether v is used only in == and != comparisons, which drop nothing.
func onlyCompared(v ssa.Value) bool {
	refs := *v.Referrers()
	for _, ref := range refs {
		switch ref := ref.(type) {
		case *ssa.BinOp:
		case *ssa.DebugRef:
		case *ssa.MakeInterface:
			if !onlyCompared(ref) {
				return false
			}
		default:
			return false
		}
	}
	return len(refs) > 0
}

// diagnostic builds the finding for a root context created at call in scope sc.
func diagnostic(pass *analysis.Pass, res *ctxssa.Result, sc *scope.Scope, call *ssa.Call, sinks []ctxorigin.Sink) analysis.Diagnostic {
	pos, end := res.CallRange(call)
	info := res.SSA()
	root := "context." + ctxorigin.Callee(call.Common()).Name() + "()"
	reqCtx, fix := reqctx.Expr(pass, sc, pos)
	msg := fmt.Sprintf("%s in %s drops the caller's deadline and cancellation; pass %s", root, reqctx.Where(sc), reqCtx)
	if deriver := deadlineWrapper(call); deriver != "" {
		msg = fmt.Sprintf("%s(%s, ...) in %s replaces the caller's deadline with a fresh one; derive it from %s",
			deriver, root, reqctx.Where(sc), reqCtx)
	}
	async := sc.InGoroutine()
	d := analysis.Diagnostic{Pos: pos, End: end}
	for _, s := range sinks {
		spos, _ := res.CallRange(s.Instr)
		verb := "reaches"
		if _, ok := s.Instr.(*ssa.Go); ok {
			verb, async = "starts a goroutine with", true
		}
		if ssc := info.Scopes.Of(s.Instr.Parent()); ssc != nil && ssc.InGoroutine() {
			async = true // made here, used in a goroutine the handler starts: runCtx captured by go func() { … }()
		}
		d.Related = append(d.Related, analysis.RelatedInformation{
			Pos: spos, Message: fmt.Sprintf("%s %s", verb, report.FuncName(s.Func)),
		})
	}
	if async {
		// The work may outlive the handler: the request ctx alone would cancel it on return.
		msg += ", or context.WithoutCancel(" + reqCtx + ") with a timeout if the goroutine must outlive it"
		fix = ""
	}
	d.Message = msg
	if fix != "" && end.IsValid() && reqctx.ImportStays(pass, report.FileOf(pass, pos), pos, end) {
		d.SuggestedFixes = []analysis.SuggestedFix{{
			Message:   fmt.Sprintf("Replace %s with %s", root, fix),
			TextEdits: []analysis.TextEdit{{Pos: pos, End: end, NewText: []byte(fix)}},
		}}
	}
	return d
}

// deadlineWrapper returns "context.WithTimeout" (or WithDeadline...) when call's result is
// passed straight to a function that adds a deadline: a fresh budget rather than a dropped one.
func deadlineWrapper(call *ssa.Call) string {
	for _, ref := range *call.Referrers() {
		if c, ok := ref.(*ssa.Call); ok {
			if fn := ctxorigin.Callee(c.Common()); ctxorigin.IsDeadlineCall(fn) {
				return "context." + fn.Name()
			}
		}
	}
	return ""
}
