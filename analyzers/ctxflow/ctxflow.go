package ctxflow

import (
	_ "embed"
	"fmt"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/ssa"

	"github.com/deadlinelint/deadlinelint/internal/ctxorigin"
	"github.com/deadlinelint/deadlinelint/internal/ctxssa"
	"github.com/deadlinelint/deadlinelint/internal/report"
	"github.com/deadlinelint/deadlinelint/internal/reqctx"
	"github.com/deadlinelint/deadlinelint/internal/ruledoc"
	"github.com/deadlinelint/deadlinelint/internal/typesutil"
)

const name = "ctxflow"

//go:embed doc.go
var doc string

// Analyzer reports request-scope calls made with a ctx that outlives the request.
var Analyzer = &analysis.Analyzer{
	Name:     name,
	Doc:      ruledoc.MustExtract(doc, name),
	URL:      ruledoc.URL(name),
	Requires: []*analysis.Analyzer{ctxssa.Analyzer},
	Run:      run,
}

func run(pass *analysis.Pass) (any, error) {
	res := pass.ResultOf[ctxssa.Analyzer].(*ctxssa.Result)
	rep := report.New(pass, res, name)
	defer rep.Finish()
	if !res.MayHaveScopes() {
		return nil, nil
	}
	info := res.SSA()
	for _, fn := range info.Funcs {
		sc := info.Scopes.Of(fn)
		if sc == nil {
			continue
		}
		for _, s := range ctxorigin.Sinks(fn) {
			if res.DialsOnly(s.Func) {
				// A dial helper keeping its connection (a cache of connections to other nodes):
				// the connection outlives the request, and a ctx that outlives it is right there.
				continue
			}
			if s.Func != nil && res.CallCarriesOnly(s.Instr.Common()) {
				// A callee that only carries the ctx's values (logs with it, reads its trace),
				// or for an interface call every value its receiver may hold, all in sight:
				// nothing it does waits on the ctx, so nothing outlives the request through it.
				continue
			}
			if res.KeptByCallee(s) {
				// An object whose lifetime the callee derives from the ctx and keeps the cancel of
				// (a subscription's Run, a job runner keeping each job's cancel by its id): its
				// work is the object's, stopped by its Stop. A callee that only starts goroutines
				// with the ctx is not that: a watch registered until the ctx ends, handed the
				// server's lifetime, stays registered after the client left.
				continue
			}
			if ctxorigin.IsAfterFunc(s.Func) {
				// The lifetime only watched: the handler's own work stopped when the server
				// shuts down too (context.AfterFunc(s.base, cancel)), none done on it.
				continue
			}
			if ctxorigin.DerivedKept(s.Ctx) {
				// A child of the long-lived ctx whose cancel the server keeps (a worker's, in
				// s.workers[id]): the work's own lifetime, which its Stop ends.
				continue
			}
			if watchedBeside(res, info, s) {
				// The callee is handed the request too — the follower's stream, the request's
				// ctx — and waits on its end beside the long-lived ctx (Sync(s.life, stream)
				// selecting on both): stopping with the server is its choice, and the client
				// leaving ends it as well.
				continue
			}
			if o, ok := longLived(info.Origins.Of(s.Ctx)); ok {
				pos, end := res.CallRange(s.Instr)
				spelled, _ := reqctx.Expr(pass, sc, pos)
				rep.Reportf(pos, end, "%s in %s uses %s, a ctx that outlives the request; pass %s",
					report.FuncName(s.Func), reqctx.Where(sc), describe(o), spelled)
			}
		}
	}
	return nil, nil
}

// longLived returns the first origin in set that outlives the request: a field of the server
// value or of a package-level variable, or a package-level ctx variable.
func longLived(set ctxorigin.Set) (ctxorigin.Origin, bool) {
	for _, o := range set {
		switch {
		case o.Kind == ctxorigin.Global:
			return o, true
		case o.Kind == ctxorigin.Field && o.FieldBase != ctxorigin.OtherBase:
			return o, true
		}
	}
	return ctxorigin.Origin{}, false
}

func describe(o ctxorigin.Origin) string {
	var s string
	switch {
	case o.Kind == ctxorigin.Global:
		s = fmt.Sprintf("package-level variable %s", o.Name())
	case o.FieldBase == ctxorigin.ServerBase:
		s = fmt.Sprintf("receiver field %s", o.Name())
	default:
		s = fmt.Sprintf("field %s of a package-level variable", o.Name())
	}
	if o.Via != nil {
		if fn := ctxorigin.Callee(o.Via.Common()); fn != nil {
			s += fmt.Sprintf(" (returned by %s)", report.FuncName(fn))
		}
	}
	return s
}

// watchedBeside reports whether the sink s hands its callee, besides the ctx, the request
// itself — the handler's stream, or a ctx of the request — as a parameter whose request's end
// the callee waits on in its own body (ctxssa.Result.Watches).
func watchedBeside(res *ctxssa.Result, info *ctxssa.Info, s ctxorigin.Sink) bool {
	common := s.Instr.Common()
	callee := ctxorigin.Callee(common)
	if callee == nil || common.IsInvoke() {
		return false
	}
	shift := 0 // a method called with its receiver among the arguments
	if ctxorigin.ReceiverInArgs(common, callee) {
		shift = 1
	}
	for k, a := range common.Args {
		if a == s.Ctx || k < shift || !request(info, a) {
			continue
		}
		if res.Watches(callee.Origin(), k-shift) {
			return true
		}
	}
	return false
}

// request reports whether v is the request: the handler's stream, or a ctx every origin of
// which is the request's.
func request(info *ctxssa.Info, v ssa.Value) bool {
	if info.Origins.IsRequestStream(v) {
		return true
	}
	return typesutil.IsContext(v.Type()) && info.Origins.Of(v).Only(ctxorigin.Request)
}
