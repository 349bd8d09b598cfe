package missingdeadline

import (
	"go/token"
	"go/types"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/ssa"

	"github.com/deadlinelint/deadlinelint/internal/callees"
	"github.com/deadlinelint/deadlinelint/internal/ctxorigin"
	"github.com/deadlinelint/deadlinelint/internal/ctxssa"
	"github.com/deadlinelint/deadlinelint/internal/typesutil"
	"github.com/deadlinelint/deadlinelint/internal/valueflow"
)

// defaults decides whether a client or connection was built, in this package, on a
// *grpc.ClientConn whose unary client interceptor sets a default deadline. Every way the value
// can be computed must lead to such a connection; anything it cannot follow (a parameter, a
// call into another package other than a client constructor) makes the answer false.
type defaults struct {
	pass    *analysis.Pass
	res     *ctxssa.Result
	info    *ctxssa.Info
	vf      *valueflow.Flow   // the package's value flow (valueflow), made on first use
	targets *callees.Resolver // the implementations of interface methods, made on first use
	setsDDL map[*ssa.Function]bool
}

// flow returns the package's value flow.
func (d *defaults) flow() *valueflow.Flow {
	if d.vf == nil {
		d.vf = valueflow.New(d.info.Pkg, d.info.Funcs)
	}
	return d.vf
}

func newDefaults(pass *analysis.Pass, res *ctxssa.Result, info *ctxssa.Info) *defaults {
	return &defaults{pass: pass, res: res, info: info, setsDDL: make(map[*ssa.Function]bool)}
}

// exempt reports whether the client or connection v comes from a connection with a
// deadline-setting unary interceptor on every path.
func (d *defaults) exempt(v ssa.Value) bool {
	if v == nil {
		return false
	}
	t := &tracer{d: d}
	return t.conn(v) && t.found
}

// exportFacts exports a defaultingConn fact for each exported function or method of the package
// some of whose results are always a connection, or a client on one, with a defaulting
// interceptor.
func (d *defaults) exportFacts() {
	for _, fn := range d.info.Funcs {
		obj, ok := fn.Object().(*types.Func)
		if !ok || !obj.Exported() || obj.Pkg() != d.pass.Pkg || fn.Signature.Results().Len() == 0 {
			continue
		}
		var f defaultingConn
		for i := range fn.Signature.Results().Len() {
			if typesutil.IsError(fn.Signature.Results().At(i).Type()) {
				continue
			}
			t := &tracer{d: d}
			if t.all(valueflow.Returned(fn, i), t.conn) && t.found {
				f.Results = append(f.Results, i)
			}
		}
		if len(f.Results) > 0 {
			d.pass.ExportObjectFact(obj, &f)
		}
		if takesInvoker(fn.Signature) && d.setsDefault(fn) || returnsInterceptor(fn.Signature) && d.defaultingResults(fn, 0) {
			d.pass.ExportObjectFact(obj, new(defaultingInterceptor))
		}
	}
}

type tracer struct {
	d     *defaults
	depth int  // connections followed into client constructors' arguments
	found bool // a connection with a defaulting interceptor was reached
}

// conn reports whether every source of v (valueflow) is a defaulting connection: a dial with a
// defaulting interceptor, a client constructor given one, a function of another package
// known by its fact to return one. A nil client makes no call: it neither exempts nor spoils.
func (t *tracer) conn(v ssa.Value) bool {
	if t.depth > maxDepth {
		return false
	}
	// A dial and a client constructor are leaves, followed by result: a generated NewXxxClient
	// of this package is not followed into (its &xxxClient{cc} says nothing of cc).
	stop := func(c *ssa.Call) bool {
		fn := ctxorigin.Callee(c.Common())
		return fn != nil && (isDial(fn) || connArg(c.Common()) != nil)
	}
	return t.d.flow().EachUntil(v, valueflow.Strict, stop, func(x ssa.Value) bool {
		switch x := x.(type) {
		case *ssa.Const:
			return x.IsNil()
		case *ssa.Call:
			return t.result(x, 0)
		case *ssa.Extract:
			if c, ok := x.Tuple.(*ssa.Call); ok {
				return t.result(c, x.Index)
			}
		}
		return false
	})
}

// all reports whether f holds for every value of vs, and that there is at least one.
func (t *tracer) all(vs []ssa.Value, f func(ssa.Value) bool) bool {
	for _, v := range vs {
		if !f(v) {
			return false
		}
	}
	return len(vs) > 0
}

// result follows result idx of a call the value flow does not see into:
// grpc.NewClient/Dial/DialContext are the connection (checked for a defaulting interceptor), a
// generated NewXxxClient(cc) is its cc argument, a function of another package is known by its
// defaultingConn fact, and an interface method by every implementation in sight.
func (t *tracer) result(call *ssa.Call, idx int) bool {
	common := call.Common()
	fn := ctxorigin.Callee(common)
	if fn == nil {
		return false
	}
	if common.IsInvoke() {
		return t.implementations(common, idx)
	}
	if isDial(fn) {
		if last := len(common.Args) - 1; idx == 0 && last >= 0 && t.hasDefaultingInterceptor(common.Args[last]) {
			t.found = true
			return true
		}
		return false
	}
	if fn.Pkg() != t.d.pass.Pkg && t.d.importedConn(fn, idx) {
		t.found = true
		return true
	}
	if cc := connArg(common); cc != nil {
		t.depth++
		defer func() { t.depth-- }()
		return t.conn(cc)
	}
	return false
}

// implementations reports whether result idx of the interface call is a defaulting
// connection, or a client on one, whatever implementation in sight it reaches (a client set's
// NewRepoServerClient() behind its interface), or every value its receiver may hold when all
// are in sight (callees.Invoked): each is followed in this package, or known by its fact in
// another. None in sight, and the call may return anything.
func (t *tracer) implementations(common *ssa.CallCommon, idx int) bool {
	if t.d.targets == nil {
		t.d.targets = t.d.res.NewCallees()
	}
	return callees.EveryProduction(t.d.targets.Invoked(common), func(tg callees.Target) bool {
		switch {
		case tg.Fn != nil:
			t.depth++
			defer func() { t.depth-- }()
			return t.depth <= maxDepth && t.all(valueflow.Returned(tg.Fn, idx), t.conn)
		case tg.Obj != nil && tg.Obj.Pkg() != t.d.pass.Pkg && t.d.importedConn(tg.Obj, idx):
			t.found = true
			return true
		}
		return false
	})
}

// importedConn reports whether fn, of another package, is known by its fact to return a
// defaulting connection, or a client on one, as its result idx.
func (d *defaults) importedConn(fn *types.Func, idx int) bool {
	var f defaultingConn
	return d.pass.ImportObjectFact(fn.Origin(), &f) && f.has(idx)
}

// isDial reports whether fn creates a *grpc.ClientConn from dial options.
func isDial(fn *types.Func) bool {
	for _, name := range []string{"NewClient", "Dial", "DialContext"} {
		if typesutil.IsFunc(fn, typesutil.GRPCPath, name) {
			return true
		}
	}
	return false
}

// connArg returns the one argument of a client constructor that is a gRPC connection
// (grpc.ClientConnInterface or *grpc.ClientConn), or nil.
func connArg(common *ssa.CallCommon) ssa.Value {
	var cc ssa.Value
	for _, a := range common.Args {
		t := a.Type()
		if typesutil.IsNamed(t, typesutil.GRPCPath, "ClientConnInterface") || typesutil.IsPointerToNamed(t, typesutil.GRPCPath, "ClientConn") {
			if cc != nil {
				return nil
			}
			cc = a
		}
	}
	return cc
}

// hasDefaultingInterceptor reports whether the dial options opts (the variadic slice of a
// grpc.NewClient call) include grpc.WithUnaryInterceptor(f) or grpc.WithChainUnaryInterceptor(...,
// f, ...) with an f that sets a default deadline.
func (t *tracer) hasDefaultingInterceptor(opts ssa.Value) bool {
	for _, opt := range elements(opts, 0) {
		call, ok := unwrap(opt).(*ssa.Call)
		if !ok {
			continue
		}
		fn := ctxorigin.Callee(call.Common())
		args := call.Common().Args
		switch {
		case typesutil.IsFunc(fn, typesutil.GRPCPath, "WithUnaryInterceptor") && len(args) == 1:
			if t.d.defaulting(args[0], 0) {
				return true
			}
		case typesutil.IsFunc(fn, typesutil.GRPCPath, "WithChainUnaryInterceptor") && len(args) == 1:
			for _, f := range elements(args[0], 0) {
				if t.d.defaulting(f, 0) {
					return true
				}
			}
		}
	}
	return false
}

// maxDepth bounds the nesting elements and defaulting follow.
const maxDepth = 8

// elements returns the values a slice built in this package can hold: the elements of a
// slice literal (or variadic arguments), through append, phis and local variables.
func elements(s ssa.Value, depth int) []ssa.Value {
	if depth > maxDepth {
		return nil
	}
	var out []ssa.Value
	switch s := s.(type) {
	case *ssa.Slice:
		if vs, ok := valueflow.LocalElements(s); ok {
			out = append(out, vs...)
		}
	case *ssa.Call:
		if b, ok := s.Call.Value.(*ssa.Builtin); ok && b.Name() == "append" {
			for _, a := range s.Call.Args {
				out = append(out, elements(a, depth+1)...)
			}
		}
	case *ssa.Phi:
		for _, e := range s.Edges {
			out = append(out, elements(e, depth+1)...)
		}
	case *ssa.UnOp:
		if alloc, ok := s.X.(*ssa.Alloc); ok && s.Op == token.MUL {
			for _, v := range valueflow.LocalStores(alloc) {
				out = append(out, elements(v, depth+1)...)
			}
		}
	}
	return out
}

// unwrap removes interface and type conversions.
func unwrap(v ssa.Value) ssa.Value {
	for {
		switch x := v.(type) {
		case *ssa.MakeInterface:
			v = x.X
		case *ssa.ChangeInterface:
			v = x.X
		case *ssa.ChangeType:
			v = x.X
		default:
			return v
		}
	}
}

// defaulting reports whether the interceptor value f — a function or literal of this package,
// what a factory function of this package returns, or a known library factory's result —
// sets a default deadline.
func (d *defaults) defaulting(f ssa.Value, depth int) bool {
	if depth > maxDepth {
		return false
	}
	switch f := unwrap(f).(type) {
	case *ssa.Function:
		if f.Pkg != d.info.Pkg {
			return d.importedDefault(f.Object())
		}
		return d.setsDefault(f)
	case *ssa.MakeClosure:
		fn, _ := f.Fn.(*ssa.Function)
		return fn != nil && fn.Pkg == d.info.Pkg && d.setsDefault(fn)
	case *ssa.Call:
		fn := ctxorigin.Callee(f.Common())
		if isDefaultingFactory(fn) || fn != nil && fn.Pkg() != d.pass.Pkg && d.importedDefault(fn) {
			return true
		}
		callee := f.Common().StaticCallee()
		if callee == nil || callee.Blocks == nil || callee.Pkg != d.info.Pkg {
			return false
		}
		return d.defaultingResults(callee, depth)
	}
	return false
}

// importedDefault reports whether obj, a function of another package, is known by its fact to
// be a defaulting interceptor or to return one.
func (d *defaults) importedDefault(obj types.Object) bool {
	return obj != nil && d.pass.ImportObjectFact(obj, new(defaultingInterceptor))
}

// defaultingResults reports whether every interceptor the factory fn of this package returns
// sets a default deadline.
func (d *defaults) defaultingResults(callee *ssa.Function, depth int) bool {
	rets := valueflow.Returned(callee, 0)
	for _, r := range rets {
		if !d.defaulting(r, depth+1) {
			return false
		}
	}
	return len(rets) > 0
}

// setsDefault reports whether the body of the unary client interceptor fn visibly sets a
// default deadline: it calls its grpc.UnaryInvoker only with ctx values that carry a deadline
// on every path (it always applies one, as go-grpc-middleware's timeout interceptor does), or
// it calls Deadline() on a context.Context and calls the invoker with a ctx that, on some path,
// comes through context.WithTimeout, WithDeadline or their …Cause forms.
func (d *defaults) setsDefault(fn *ssa.Function) bool {
	if v, ok := d.setsDDL[fn]; ok {
		return v
	}
	var invoker *ssa.Parameter
	for _, p := range fn.Params {
		if typesutil.IsNamed(p.Type(), typesutil.GRPCPath, "UnaryInvoker") {
			invoker = p
		}
	}
	some, all, calls := false, true, 0
	for _, b := range fn.Blocks {
		for _, instr := range b.Instrs {
			call, ok := instr.(*ssa.Call)
			if ok && invoker != nil && call.Call.Value == invoker && len(call.Call.Args) > 0 {
				origins := d.info.Origins.Of(call.Call.Args[0])
				some = some || hasDeadlinePath(origins)
				all = all && alwaysDeadline(origins)
				calls++
			}
		}
	}
	v := calls > 0 && all || some && ctxorigin.CallsDeadline(fn)
	d.setsDDL[fn] = v
	return v
}

// alwaysDeadline reports whether every origin of a ctx has a deadline applied.
func alwaysDeadline(s ctxorigin.Set) bool {
	for _, o := range s {
		if !o.Deadline {
			return false
		}
	}
	return len(s) > 0
}

// defaultingFactories are library functions returning a unary client interceptor that gives
// every call a deadline.
var defaultingFactories = []struct{ pkg, name string }{
	// timeout.UnaryClientInterceptor(d) wraps every call in context.WithTimeout(ctx, d).
	{"github.com/grpc-ecosystem/go-grpc-middleware/v2/interceptors/timeout", "UnaryClientInterceptor"},
}

// isDefaultingFactory reports whether fn is one of defaultingFactories.
func isDefaultingFactory(fn *types.Func) bool {
	for _, f := range defaultingFactories {
		if typesutil.IsFunc(fn, f.pkg, f.name) {
			return true
		}
	}
	return false
}

// hasDeadlinePath reports whether some origin of a ctx has a deadline applied.
func hasDeadlinePath(s ctxorigin.Set) bool {
	for _, o := range s {
		if o.Deadline {
			return true
		}
	}
	return false
}
