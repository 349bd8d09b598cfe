package detach

import (
	_ "embed"
	"fmt"
	"go/ast"
	"go/types"
	"sort"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/ssa"

	"github.com/deadlinelint/deadlinelint/internal/ctxorigin"
	"github.com/deadlinelint/deadlinelint/internal/ctxssa"
	"github.com/deadlinelint/deadlinelint/internal/report"
	"github.com/deadlinelint/deadlinelint/internal/ruledoc"
	"github.com/deadlinelint/deadlinelint/internal/typesutil"
)

const name = "detach"

//go:embed doc.go
var doc string

// Analyzer reports context.WithoutCancel calls that run unbounded detached work or give no
// reason for detaching.
var Analyzer = &analysis.Analyzer{
	Name:      name,
	Doc:       ruledoc.MustExtract(doc, name),
	URL:       ruledoc.URL(name),
	Requires:  []*analysis.Analyzer{ctxssa.Analyzer},
	Run:       run,
	FactTypes: []analysis.Fact{new(workParam)},
}

// strict requires both a bound and a reason, the Go article's full advice, of every
// WithoutCancel; by default one is reported only when it detaches from a request (the request
// ctx of a scope, or a parameter the package's scopes hand it to) and its work has neither: either
// one is a decision, and detaching anything else (a component's lifetime, a job's cleanup) loses
// no caller's deadline.
var strict bool

func init() {
	Analyzer.Flags.BoolVar(&strict, "strict", false,
		"report every context.WithoutCancel that lacks a bound or a reason (default: only one detaching from a request that lacks both)")
}

// workParam is the fact exported for a function of the user's code whose ctx parameter
// (Param, an index into its SSA parameters, receiver first) reaches ctx-taking work with no
// deadline added: a detached ctx handed to it runs unbounded.
type workParam struct {
	Param int
}

// AFact marks workParam as an analysis fact.
func (*workParam) AFact() {}

func (f *workParam) String() string { return fmt.Sprintf("unbounded work with param %d", f.Param) }

func run(pass *analysis.Pass) (any, error) {
	res := pass.ResultOf[ctxssa.Analyzer].(*ctxssa.Result)
	if res.External {
		return nil, nil
	}
	rep := report.New(pass, res, name)
	defer rep.Finish()
	reasons := newReasons(pass, res)
	if res.Context {
		info := res.SSA()
		funcs := withInit(info)
		r := newReach(info.Origins, elsewhere(pass, res))
		exportWorkParams(pass, info, r)
		calls := detachCalls(funcs)
		unbounded := r.unboundedSinks(funcs, calls)
		for _, call := range calls {
			why := reasons.of(call) // first: a //deadlinelint:detach here is used, reported or not
			if !isUsed(call) || fromTest(call) || info.Scopes.TestSupport(call.Parent()) {
				continue // test code: no request to detach from
			}
			if !strict && !info.FromRequest(call.Call.Args[0]) {
				continue // not known to detach from a request: lifecycle work, a job's cleanup
			}
			if d, ok := diagnostic(res, call, why, unbounded[call]); ok {
				rep.Report(d)
			}
		}
	}
	for _, dir := range reasons.stray() {
		rep.Reportf(dir.Pos, 0, "//deadlinelint:detach applies to no context.WithoutCancel call on this line or the next; remove it")
	}
	return nil, nil
}

// exportWorkParams exports a workParam fact for each declared function whose ctx parameter
// reaches unbounded work, so that detached ctx values handed to it from other packages are
// judged as if its body were there.
func exportWorkParams(pass *analysis.Pass, info *ctxssa.Info, r *reach) {
	for _, fn := range info.Funcs {
		obj := fn.Object()
		if obj == nil {
			continue
		}
		for i, p := range fn.Params {
			if typesutil.IsContext(p.Type()) && r.paramReachesWork(fn, p) {
				pass.ExportObjectFact(obj, &workParam{Param: i})
				break
			}
		}
	}
}

// elsewhere answers reach's question for callees in other packages: the user's own functions
// by their workParam fact, library functions (database drivers, HTTP and gRPC clients) as work.
func elsewhere(pass *analysis.Pass, res *ctxssa.Result) func(*types.Func, int) bool {
	return func(fn *types.Func, i int) bool {
		if fn == nil || !res.Owned(fn) {
			return true
		}
		var f workParam
		return pass.ImportObjectFact(fn, &f) && f.Param == i
	}
}

// withInit returns the package's source functions and, when it exists, the synthetic init,
// whose body evaluates package-level variable initialisers.
func withInit(info *ctxssa.Info) []*ssa.Function {
	funcs := info.Funcs
	if initFn := info.Pkg.Func("init"); initFn != nil {
		funcs = append(funcs[:len(funcs):len(funcs)], initFn)
	}
	return funcs
}

// detachCalls returns the calls to context.WithoutCancel in the bodies of funcs.
func detachCalls(funcs []*ssa.Function) []*ssa.Call {
	var out []*ssa.Call
	for _, fn := range funcs {
		for _, b := range fn.Blocks {
			for _, instr := range b.Instrs {
				if call, ok := instr.(*ssa.Call); ok && ctxorigin.IsDetachCall(ctxorigin.Callee(call.Common())) {
					out = append(out, call)
				}
			}
		}
	}
	return out
}

// fromTest reports whether the detached ctx is a test's own (t.Context() of a *testing.T, B,
// F or testing.TB): the t.Cleanup idiom detaches from a test that is ending, not from a request.
func fromTest(call *ssa.Call) bool {
	arg, ok := call.Call.Args[0].(*ssa.Call)
	if !ok {
		return false
	}
	callee := ctxorigin.Callee(arg.Common())
	return callee != nil && callee.Name() == "Context" && typesutil.IsTestingMethod(callee)
}

// isUsed reports whether the result of call is used at all.
func isUsed(call *ssa.Call) bool {
	refs := call.Referrers()
	if refs == nil {
		return false
	}
	for _, ref := range *refs {
		if _, ok := ref.(*ssa.DebugRef); !ok {
			return true
		}
	}
	return false
}

// diagnostic builds the finding for the WithoutCancel call, given what its reason is and the
// work it reaches with no deadline; ok is false when there is nothing to say.
func diagnostic(res *ctxssa.Result, call *ssa.Call, why reason, unbounded []ctxorigin.Sink) (analysis.Diagnostic, bool) {
	pos, end := res.CallRange(call)
	detached := spell(res.CallExpr(call.Pos()))
	var msg string
	if !strict && (len(unbounded) == 0 || why == hasReason) {
		return analysis.Diagnostic{}, false // bounded, or explained: somebody decided
	}
	switch {
	case len(unbounded) > 0 && why == noReason:
		msg = fmt.Sprintf("%s runs work with no deadline and no reason; bound it with context.WithTimeout and say why", detached)
	case len(unbounded) > 0 && why == emptyDirective:
		msg = fmt.Sprintf("%s runs work with no deadline, and its //deadlinelint:detach gives no reason; bound it and say why", detached)
	case len(unbounded) > 0:
		msg = fmt.Sprintf("%s runs work with no deadline of its own; bound it with context.WithTimeout", detached)
	case why == noReason:
		msg = fmt.Sprintf("%s has no comment saying why the work must outlive the request; add one", detached)
	case why == emptyDirective:
		msg = fmt.Sprintf("the //deadlinelint:detach of %s gives no reason; say why the work must outlive the request", detached)
	default:
		return analysis.Diagnostic{}, false
	}
	d := analysis.Diagnostic{Pos: pos, End: end, Message: msg}
	for _, s := range unbounded {
		spos, _ := res.CallRange(s.Instr)
		d.Related = append(d.Related, analysis.RelatedInformation{Pos: spos, Message: describe(s)})
	}
	fset := call.Parent().Prog.Fset
	sort.SliceStable(d.Related, func(i, j int) bool { return report.Before(fset, d.Related[i].Pos, d.Related[j].Pos) })
	return d, true
}

// spell renders the WithoutCancel call for a message: its source text when short, else
// "context.WithoutCancel(...)".
func spell(ce *ast.CallExpr) string {
	const short = "context.WithoutCancel(...)"
	if ce == nil {
		return short
	}
	if s := types.ExprString(ce); len(s) <= 48 {
		return s
	}
	return short
}

// describe says, for a related position, what a sink does with the detached ctx.
func describe(s ctxorigin.Sink) string {
	callee := report.FuncName(s.Func)
	if s.Func == nil && s.Instr.Common().StaticCallee() != nil {
		callee = "a function literal"
	}
	switch s.Instr.(type) {
	case *ssa.Go:
		return fmt.Sprintf("runs %s on a goroutine with no deadline", callee)
	case *ssa.Defer:
		return fmt.Sprintf("defers %s with no deadline", callee)
	}
	return fmt.Sprintf("reaches %s with no deadline", callee)
}
