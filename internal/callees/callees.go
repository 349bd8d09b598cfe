// Package callees finds the functions a call in the analysed package may invoke, beyond its
// static callee: the implementations of an interface method declared in the package and the
// packages it imports, and the functions a function value may hold — a literal, a named
// function, a bound method value (w.flush), a method expression ((*T).M), merged by phis,
// stored into a func-typed struct field, a map, a slice or a package variable, captured by a
// literal, or returned by a function of the package (done := s.acquire(ctx); done()). Where
// no candidate is known, it returns none: rules stay silent.
package callees

import (
	"go/token"
	"go/types"
	"slices"
	"strings"
	"sync"

	"golang.org/x/tools/go/ssa"

	"github.com/deadlinelint/deadlinelint/internal/typesutil"
	"github.com/deadlinelint/deadlinelint/internal/valueflow"
)

// Target is one function a call may invoke.
type Target struct {
	Obj *types.Func   // the declared function or method; nil for a function literal
	Fn  *ssa.Function // its SSA body when it is in the analysed package, else nil
	// Impl is the concrete type providing an interface method ("*pgRepo"), or "".
	Impl string
	// Field is the func-typed struct field the function was stored in, or "".
	Field string
	// Bound is set for a method value (w.flush): its receiver is bound, Recv, and a call
	// passes only the declared parameters.
	Bound bool
	Recv  ssa.Value
	// From is set, with Result, for the function value a function of another package returns
	// (an iterator, a wrapped callback): rules know what it does from From's facts.
	From   *types.Func
	Result int
	// Double is set for a method of a generated mock (typesutil.IsTestDouble), which no
	// production call reaches. A rule may leave doubles out (EveryProduction) only to stay silent —
	// to find that every implementation does no work — never to report: a drop through an
	// interface whose mock passes its ctx on stays unreported.
	Double bool
}

// EveryProduction reports whether ok holds for every target that is not a generated mock, and
// there is one: "every implementation in sight" for a rule that stays silent when it holds.
// No implementation in sight, and a call may do anything.
func EveryProduction(ts []Target, ok func(Target) bool) bool {
	n := 0
	for _, t := range ts {
		if t.Double {
			continue
		}
		if !ok(t) {
			return false
		}
		n++
	}
	return n > 0
}

// Resolver answers Targets for the calls of one package.
type Resolver struct {
	pkg     *ssa.Package
	funcs   []*ssa.Function
	owned   func(types.Object) bool
	types   *Types                            // the owned concrete types visible to the package
	impls   map[*types.Func][]Target          // per interface method
	implsOf map[*types.Interface][]types.Type // per interface: the implementing types (T or *T)
	vf      *valueflow.Flow                   // the package's value flow, made on first use
	sealed  *valueflow.Flow                   // Held's, over Hidden too, made on first use
	runs    map[paramKey]bool                 // RunsParam, memoised
	asking  map[ssa.Value]bool                // RunsHere's questions under way

	// Imported, if set, answers RunsParam for a function of another package from its fact: ok
	// is false when the function's package was not summarised (it may run anything).
	Imported func(fn *types.Func, i int) (runs, ok bool)
	// RunFields, if set, answers for a method — of this package, from its body, or of another,
	// from its fact — which func-typed fields of its receiver it runs as part of a call
	// (cache.Cache.Get calling c.load).
	RunFields func(m *types.Func) []string
	// StoredParams, if set, answers for a function — of this package or of another — which
	// of its parameters it stores into which field of the struct its first result points to
	// (cache.New(load) returning &Cache{load: load}): parameter index to field name.
	StoredParams func(fn *types.Func) map[int]string
	// Hidden are the package's functions no rule reads (those of its generated files, with
	// their literals): what they store into a field or variable still counts for Held.
	Hidden []*ssa.Function
}

// New returns a Resolver for pkg, whose source functions are funcs. Interface calls are
// followed only for interfaces that owned accepts (the user's own, not io.Closer: a user type
// that happens to implement a standard interface is not what a handler's io.Closer is), and
// only into implementations it accepts. ts indexes the named types the package can see; every
// resolver of the package (with the same owned) shares one, built by the first that asks.
func New(pkg *ssa.Package, funcs []*ssa.Function, owned func(types.Object) bool, ts *Types) *Resolver {
	return &Resolver{
		pkg: pkg, funcs: funcs, owned: owned, types: ts,
		impls:   make(map[*types.Func][]Target),
		implsOf: make(map[*types.Interface][]types.Type),
	}
}

// Types holds the packages whose named types the resolvers of one package look through: the
// package and every package it imports, directly or not, that declares a type the resolvers'
// owned accepts. Its zero value is ready to use; it is safe for concurrent use.
type Types struct {
	once sync.Once
	pkgs []*types.Package
}

// candidates returns the owned named types, outside test files, that may implement iface:
// those whose pointer's method set has a method of each of iface's names (all of them for an
// empty interface), in the order of the packages, then of the types' names. Asking
// types.Implements of every named type visible to a package for every interface a call goes
// through was the resolver's largest cost; each package's index is built once, and only for
// packages with an owned type (never for the standard library or the module cache).
func (ts *Types) candidates(pkg *types.Package, fset *token.FileSet, owned func(types.Object) bool, iface *types.Interface) []*types.TypeName {
	ts.once.Do(func() {
		for _, p := range packages(pkg) {
			// Ownership is asked of each type, not of the package: a //line directive can
			// place one file of a package in the module cache.
			if slices.ContainsFunc(indexOf(p).all, func(tn *types.TypeName) bool { return owned(tn) }) {
				ts.pkgs = append(ts.pkgs, p)
			}
		}
	})
	var out []*types.TypeName
	for _, p := range ts.pkgs {
		idx := indexOf(p)
		idx.indexMethods()
		fewest := idx.all
		for i := range iface.NumMethods() {
			if c := idx.byName[iface.Method(i).Name()]; i == 0 || len(c) < len(fewest) {
				fewest = c
			}
		}
		for _, tn := range fewest {
			if owned(tn) && !inTestFile(fset, tn) {
				out = append(out, tn)
			}
		}
	}
	return out
}

// typeIndex lists the named, non-alias, non-interface types declared at package level in a
// package, in the order of their names, and indexes them by the names of their pointers'
// methods (on first use: the packages of dependencies are never indexed).
type typeIndex struct {
	all    []*types.TypeName
	once   sync.Once
	byName map[string][]*types.TypeName
}

// indexByPkg caches indexOf per package: every package importing p asks again.
var indexByPkg sync.Map // *types.Package -> *typeIndex

func indexOf(p *types.Package) *typeIndex {
	if v, ok := indexByPkg.Load(p); ok {
		return v.(*typeIndex)
	}
	idx := new(typeIndex)
	scope := p.Scope()
	for _, name := range scope.Names() {
		if tn, ok := scope.Lookup(name).(*types.TypeName); ok && !tn.IsAlias() && !types.IsInterface(tn.Type()) {
			idx.all = append(idx.all, tn)
		}
	}
	v, _ := indexByPkg.LoadOrStore(p, idx)
	return v.(*typeIndex)
}

// indexMethods fills byName once.
func (idx *typeIndex) indexMethods() {
	idx.once.Do(func() {
		idx.byName = make(map[string][]*types.TypeName)
		for _, tn := range idx.all {
			for _, m := range methodNames(tn) {
				idx.byName[m] = append(idx.byName[m], tn)
			}
		}
	})
}

// methodNames returns the distinct names in the method set of *T for the named type T, which
// holds T's own: its methods and those promoted from embedded fields.
func methodNames(tn *types.TypeName) []string {
	ms := types.NewMethodSet(types.NewPointer(tn.Type()))
	var names []string
	for i := range ms.Len() {
		if name := ms.At(i).Obj().Name(); !slices.Contains(names, name) {
			names = append(names, name)
		}
	}
	return names
}

// Targets returns the functions the call may invoke.
func (r *Resolver) Targets(common *ssa.CallCommon) []Target {
	if common.IsInvoke() {
		return r.implementations(common.Method)
	}
	if fn := common.StaticCallee(); fn != nil {
		return []Target{r.target(fn)}
	}
	return r.Values(common.Value)
}

// Invoked returns the functions the call may invoke, as Targets does, but for an interface call
// whose receiver's every possible value is in sight only those values' methods (Dynamic): a
// server wired to its in-memory store runs no other store's method.
func (r *Resolver) Invoked(common *ssa.CallCommon) []Target {
	if held := r.Dynamic(common); held != nil {
		return held
	}
	return r.Targets(common)
}

// maxDepth bounds how deep Values follows closures that closures return.
const maxDepth = 8

// Values returns the functions the func-typed value v may hold, or nil when one of the ways it
// is made is out of sight (a parameter, a type assertion).
func (r *Resolver) Values(v ssa.Value) []Target {
	return r.valuesIn(r.flow(), v, valueflow.Lenient)
}

// Held returns the functions the func-typed value v may hold when every one is in sight: as
// Values, but strictly — every value stored into a field or variable on the way must be in
// sight, also those its generated files store (Hidden), and none may be one another package
// can store into (an exported field or package variable, a field of another package's type),
// nor the element of a container the package keeps, nor a field of a generic type
// (valueflow.Sealed). A field the package sets only to a no-op may hold whatever the package
// wiring the server puts there. Nil when one is out of sight.
func (r *Resolver) Held(v ssa.Value) []Target {
	if r.sealed == nil {
		r.sealed = valueflow.New(r.pkg, append(slices.Clip(r.funcs), r.Hidden...))
	}
	return r.valuesIn(r.sealed, v, valueflow.Sealed)
}

// valuesIn is Values with the value flow vf in mode.
func (r *Resolver) valuesIn(vf *valueflow.Flow, v ssa.Value, mode valueflow.Mode) []Target {
	ts, ok := r.values(vf, v, 0, mode)
	if !ok {
		return nil
	}
	if field := fieldOf(v); field != nil {
		for i := range ts {
			ts[i].Field = field.Name()
		}
	}
	return dedup(ts)
}

// ReceiverField returns the name of the field of the receiver recv that the value v is read
// from — a load of &recv.f, or recv.f of a value receiver: the func field a method runs
// (c.load(ctx, k)) — or "".
func ReceiverField(v ssa.Value, recv *ssa.Parameter) string {
	switch v := v.(type) {
	case *ssa.UnOp:
		if fa, ok := v.X.(*ssa.FieldAddr); ok && v.Op == token.MUL && fa.X == recv {
			return typesutil.FieldVar(fa.X.Type(), fa.Field).Name()
		}
	case *ssa.Field:
		if v.X == recv {
			return typesutil.FieldVar(v.X.Type(), v.Field).Name()
		}
	}
	return ""
}

// fieldOf returns the struct field v is read from, or nil.
func fieldOf(v ssa.Value) *types.Var {
	switch v := v.(type) {
	case *ssa.Field:
		return typesutil.FieldVar(v.X.Type(), v.Field)
	case *ssa.UnOp:
		if fa, ok := v.X.(*ssa.FieldAddr); ok && v.Op == token.MUL {
			return typesutil.FieldVar(fa.X.Type(), fa.Field)
		}
	}
	return nil
}

// values follows v with the package's value flow (valueflow.Flow): a function or literal is a
// target, a method value a bound one; a call the flow does not see into is a closure a closure
// returned (mk := s.stepper(); mk(id)(ctx)), or a function value another package returned
// (From, known by its facts). Stores into fields, maps, slices and package variables are read
// in mode: leniently for Values (the functions the package stores are among those the place
// may hold), sealed for Held.
func (r *Resolver) values(vf *valueflow.Flow, v ssa.Value, depth int, mode valueflow.Mode) ([]Target, bool) {
	if depth > maxDepth {
		return nil, false
	}
	var out []Target
	ok := vf.Each(v, mode, func(x ssa.Value) bool {
		switch x := x.(type) {
		case *ssa.Function:
			out = append(out, r.target(x))
			return true
		case *ssa.MakeClosure:
			t := r.target(x.Fn.(*ssa.Function))
			if isBound(x) {
				t.Bound, t.Recv = true, x.Bindings[0]
			}
			out = append(out, t)
			return true
		case *ssa.Const:
			return x.IsNil() // calling a nil func panics: nothing runs
		case *ssa.Call:
			ts, ok := r.returned(vf, x, 0, depth, mode)
			out = append(out, ts...)
			return ok
		case *ssa.Extract:
			if call, isCall := x.Tuple.(*ssa.Call); isCall {
				ts, ok := r.returned(vf, call, x.Index, depth, mode)
				out = append(out, ts...)
				return ok
			}
		}
		return false
	})
	return out, ok
}

// flow returns the package's value flow, made on first use.
func (r *Resolver) flow() *valueflow.Flow {
	if r.vf == nil {
		r.vf = valueflow.New(r.pkg, r.funcs)
	}
	return r.vf
}

// returned returns the functions result idx of call may be, for a call the value flow does
// not see into: of another package's function, the function value it returns (From); of a
// function value, what the functions it may hold return.
func (r *Resolver) returned(vf *valueflow.Flow, call *ssa.Call, idx int, depth int, mode valueflow.Mode) ([]Target, bool) {
	if call.Common().StaticCallee() != nil {
		if obj := r.ImportedCallee(call.Common()); obj != nil {
			return []Target{{From: obj, Result: idx}}, true // another package's: its facts tell
		}
		return nil, false
	}
	if call.Common().IsInvoke() {
		return nil, false
	}
	ts, ok := r.values(vf, call.Common().Value, depth+1, mode)
	if !ok {
		return nil, false
	}
	var out []Target
	for _, t := range ts {
		if t.Fn == nil || t.Bound {
			return nil, false
		}
		for _, v := range valueflow.Returned(t.Fn, idx) {
			rs, ok := r.values(vf, v, depth+1, mode)
			if !ok {
				return nil, false
			}
			out = append(out, rs...)
		}
	}
	return out, true
}

// isBound reports whether mc makes a method value: the $bound wrapper of a method, its
// receiver bound.
func isBound(mc *ssa.MakeClosure) bool {
	fn := mc.Fn.(*ssa.Function)
	return fn.Synthetic != "" && fn.Parent() == nil && len(mc.Bindings) == 1
}

// dedup drops repeated targets, keeping the first.
func dedup(ts []Target) []Target {
	var out []Target
	for _, t := range ts {
		dup := false
		for _, o := range out {
			dup = dup || o.Obj == t.Obj && o.Fn == t.Fn && o.Field == t.Field && o.Bound == t.Bound && o.From == t.From && o.Result == t.Result
		}
		if !dup {
			out = append(out, t)
		}
	}
	return out
}

// target describes fn, an SSA function, as a Target.
func (r *Resolver) target(fn *ssa.Function) Target {
	t := Target{}
	if o := fn.Origin(); o != nil {
		fn = o
	}
	t.Obj, _ = fn.Object().(*types.Func)
	if fn.Synthetic != "" && t.Obj != nil {
		// A $bound method value (c.refresh stored into a field) or another wrapper: the
		// method it calls is the target, with its body when it is in this package.
		if m := r.pkg.Prog.FuncValue(t.Obj); m != nil {
			fn = m
		}
	}
	if fn.Blocks != nil && fn.Pkg == r.pkg {
		t.Fn = fn
	}
	return t
}

// Implementations returns the concrete methods implementing the interface method m, of an
// interface of the user's code, among the named types the package can see (generated mocks
// marked Double).
func (r *Resolver) Implementations(m *types.Func) []Target { return r.implementations(m) }

// implementations returns the concrete methods implementing the interface method m among the
// named types of the package and of every package it imports, directly or not.
func (r *Resolver) implementations(m *types.Func) []Target {
	if ts, ok := r.impls[m]; ok {
		return ts
	}
	var out []Target
	iface, ok := m.Signature().Recv().Type().Underlying().(*types.Interface)
	if ok && r.owned(m) {
		for _, t := range r.implementers(iface) {
			obj, _, _ := types.LookupFieldOrMethod(t, true, m.Pkg(), m.Name())
			if impl, ok := obj.(*types.Func); ok && !typesutil.IsInterfaceMethod(impl) {
				// (A struct that implements the interface by embedding it forwards to what it
				// holds, an implementation of its own: it is none.)
				out = append(out, r.methodTarget(impl, t))
			}
		}
	}
	r.impls[m] = out
	return out
}

// implementers returns, once per interface, the owned concrete types T (or *T, when only the
// pointer does) that implement iface.
func (r *Resolver) implementers(iface *types.Interface) []types.Type {
	if ts, ok := r.implsOf[iface]; ok {
		return ts
	}
	var out []types.Type
	for _, tn := range r.types.candidates(r.pkg.Pkg, r.pkg.Prog.Fset, r.owned, iface) {
		if t := typesutil.Implementing(tn.Type(), iface); t != nil {
			out = append(out, t)
		}
	}
	r.implsOf[iface] = out
	return out
}

// inTestFile reports whether tn is declared in a _test.go file: a test double, which never
// stands behind an interface in production code. (A generated mock outside one is a Target
// marked Double.)
func inTestFile(fset *token.FileSet, tn *types.TypeName) bool {
	return strings.HasSuffix(fset.PositionFor(tn.Pos(), false).Filename, "_test.go") // the file itself, not a //line name
}

// ImplementersIn returns the concrete types declared at package level in p (T, or *T when
// only the pointer does) that implement iface: a library's own implementations of its
// interface, as its package sees them.
func ImplementersIn(p *types.Package, iface *types.Interface) []types.Type {
	var out []types.Type
	for _, tn := range indexOf(p).all {
		if t := typesutil.Implementing(tn.Type(), iface); t != nil {
			out = append(out, t)
		}
	}
	return out
}

// packageName qualifies a type by its package's name: "*repo.PG".
func packageName(p *types.Package) string { return p.Name() }

// packages returns pkg and its transitive imports.
func packages(pkg *types.Package) []*types.Package {
	seen := map[*types.Package]bool{}
	var out []*types.Package
	var walk func(p *types.Package)
	walk = func(p *types.Package) {
		if seen[p] {
			return
		}
		seen[p] = true
		out = append(out, p)
		for _, imp := range p.Imports() {
			walk(imp)
		}
	}
	walk(pkg)
	return out
}

// Callbacks returns the functions a call hands its callee as arguments that the callee runs as
// part of the call — retry(ctx, s.fetch), each(items, func(it item) { … }) — when the callee
// is a function of the package whose body calls that parameter (runsParam). A function handed
// to a function out of sight, or one that only stores it or starts it on a goroutine, is not
// among them.
func (r *Resolver) Callbacks(common *ssa.CallCommon) []Target {
	var out []Target
	for i, arg := range common.Args {
		if _, ok := arg.Type().Underlying().(*types.Signature); !ok {
			continue
		}
		if runs, known := r.runsArg(common, i); runs && known {
			out = append(out, r.Values(arg)...)
		}
	}
	if m := r.declaredCallee(common); m != nil && r.RunFields != nil {
		out = append(out, r.FieldCallbacks(common, r.RunFields(m))...)
	}
	return dedup(out)
}

// FieldCallbacks returns the functions the func-typed fields of a method call's receiver may
// hold, for a method that runs them (cache.Cache.Get calling c.load, known from its body or its
// fact): every value the receiver may hold must have been made, in this package, by a
// constructor that stores a function it is given into that field (s.items = cache.New(s.fetch),
// marks := newBatch(s.markSynced) — known from its body or its fact). A receiver made out of
// sight, or by a constructor that stores nothing known into the field, gives none.
func (r *Resolver) FieldCallbacks(common *ssa.CallCommon, fields []string) []Target {
	if r.StoredParams == nil || len(common.Args) == 0 || len(fields) == 0 {
		return nil
	}
	m := r.declaredCallee(common)
	if m == nil || m.Signature().Recv() == nil || len(common.Args) != m.Signature().Params().Len()+1 {
		return nil
	}
	var out []Target
	// A constructor of this package is a leaf, not followed into the struct it returns: the
	// arguments of its call say what the fields hold.
	ctorCall := func(call *ssa.Call) bool {
		ctor := r.declaredCallee(call.Common())
		return ctor != nil && len(r.StoredParams(ctor)) > 0
	}
	ok := r.flow().EachUntil(common.Args[0], valueflow.Strict, ctorCall, func(x ssa.Value) bool {
		if c, isConst := x.(*ssa.Const); isConst {
			return c.IsNil()
		}
		call, isCall := x.(*ssa.Call)
		if !isCall {
			return false
		}
		ctor := r.declaredCallee(call.Common())
		if ctor == nil {
			return false
		}
		found := false
		for i, f := range r.StoredParams(ctor) {
			if slices.Contains(fields, f) && i < len(call.Common().Args) {
				ts := r.Values(call.Common().Args[i])
				for k := range ts {
					ts[k].Field = f
				}
				out = append(out, ts...)
				found = found || len(ts) > 0
			}
		}
		return found
	})
	if !ok {
		return nil
	}
	return out
}

// runsArg reports whether the callee of common runs the function value it is given as
// argument i: from its body in the package, or from its fact in another. known is false when
// the callee is out of sight (a dynamic call, a package not summarised).
func (r *Resolver) runsArg(common *ssa.CallCommon, i int) (runs, known bool) {
	if callee := r.body(common); callee != nil {
		return r.RunsParam(callee, i), true
	}
	obj := r.ImportedCallee(common)
	if typesutil.IsFunc(obj, "time", "AfterFunc") {
		return false, true // the timer runs it later, on a goroutine of its own
	}
	if obj == nil || r.Imported == nil {
		return false, false
	}
	if BoundMethod(common, obj) {
		i++ // the facts count the receiver among the parameters; a method value's call does not
	}
	return r.Imported(obj, i)
}

// BoundMethod reports whether common calls the method obj through a method value (f := c.Run;
// f(…)): its static callee is the wrapper with the receiver bound, whose parameters — the
// call's arguments — are the method's declared ones, without the receiver that SSA parameter
// indexes count.
func BoundMethod(common *ssa.CallCommon, obj *types.Func) bool {
	callee := common.StaticCallee()
	return callee != nil && callee.Synthetic != "" && obj.Signature().Recv() != nil &&
		callee.Signature.Recv() == nil && len(callee.Params) == obj.Signature().Params().Len()
}

// ImportedCallee returns the declared function (the generic origin of an instance) a static
// call invokes when its body is not in this package — another package's, known only by its
// facts — or nil.
func (r *Resolver) ImportedCallee(common *ssa.CallCommon) *types.Func {
	obj, callee := r.staticCallee(common)
	if obj == nil || callee.Pkg == r.pkg && callee.Blocks != nil {
		return nil
	}
	return obj
}

// declaredCallee returns the declared function (the generic origin of an instance) a static
// call invokes, of this package or of another, or nil.
func (r *Resolver) declaredCallee(common *ssa.CallCommon) *types.Func {
	obj, _ := r.staticCallee(common)
	return obj
}

// staticCallee returns the declared function a static call invokes and its SSA function, both
// the generic origin of an instance, or nil.
func (r *Resolver) staticCallee(common *ssa.CallCommon) (*types.Func, *ssa.Function) {
	callee := common.StaticCallee()
	if common.IsInvoke() || callee == nil {
		return nil, nil
	}
	if o := callee.Origin(); o != nil {
		callee = o
	}
	obj, ok := callee.Object().(*types.Func)
	if !ok || obj.Pkg() == nil {
		return nil, nil
	}
	return obj.Origin(), callee
}

// body returns the static callee of common when it is a function of the package with a body
// (the generic origin of an instance), or nil.
func (r *Resolver) body(common *ssa.CallCommon) *ssa.Function {
	callee := common.StaticCallee()
	if common.IsInvoke() || callee == nil {
		return nil
	}
	if o := callee.Origin(); o != nil {
		callee = o
	}
	if callee.Pkg != r.pkg || callee.Blocks == nil || len(callee.Params) != len(common.Args) {
		return nil
	}
	return callee
}

// Body returns the function of the package a call runs (the generic origin of an instance), or
// nil when its body is out of sight.
func (r *Resolver) Body(common *ssa.CallCommon) *ssa.Function { return r.body(common) }

// RunsParam reports whether fn, a function of the package, calls its parameter i (a function
// value) as part of a call to it: directly, from a literal it runs, or by handing it to a
// function of the package that does. Deferred and goroutine calls do not count: cleanup, and a
// lifetime of its own.
func (r *Resolver) RunsParam(fn *ssa.Function, i int) bool {
	if i < 0 || i >= len(fn.Params) {
		return false
	}
	key := paramKey{fn, i}
	if v, ok := r.runs[key]; ok {
		return v
	}
	if r.runs == nil {
		r.runs = make(map[paramKey]bool)
	}
	r.runs[key] = false // a recursive call adds nothing
	v := r.runsValue(fn.Params[i], 0)
	r.runs[key] = v
	return v
}

type paramKey struct {
	fn *ssa.Function
	i  int
}

// runsValue reports whether the function value v is called by the function it is in, or by a
// literal that function runs, or by a function of the package it is handed to.
func (r *Resolver) runsValue(v ssa.Value, depth int) bool {
	runs := false
	r.calls(v, depth, false, func(ssa.CallInstruction, int) { runs = true })
	return runs
}

// Runs calls visit with each call that runs the function value v, a parameter of the function
// it is in: a call of v itself (arg is -1), or a call that hands v, as its argument arg, to a
// function that runs it — in the function, through conversions, or in a literal the function
// runs in place, starts on a goroutine or defers — and go and defer statements of v. With
// which ctx v is run must hold of every run: a helper that runs a callback with its ctx
// unchanged on one path may run it on a goroutine, under a deadline of its own, on another.
// (RunsParam, is the parameter run as part of a call?, counts only the runs in place.)
func (r *Resolver) Runs(v ssa.Value, visit func(call ssa.CallInstruction, arg int)) {
	r.calls(v, 0, true, visit)
}

// calls is the walk of Runs, and of RunsParam's question (runs in place only) when started is
// not set.
func (r *Resolver) calls(v ssa.Value, depth int, started bool, visit func(ssa.CallInstruction, int)) {
	refs := v.Referrers()
	if refs == nil || depth > maxDepth {
		return
	}
	for _, ref := range *refs {
		switch ref := ref.(type) {
		case ssa.CallInstruction:
			if _, call := ref.(*ssa.Call); !call && !started {
				continue
			}
			common := ref.Common()
			if common.Value == v {
				visit(ref, -1)
				continue
			}
			for i, arg := range common.Args {
				if runs, known := r.runsArg(common, i); arg == v && runs && known {
					visit(ref, i)
				}
			}
		case *ssa.ChangeType:
			r.calls(ref, depth+1, started, visit)
		case *ssa.MakeClosure:
			for _, fv := range r.boundIn(ref, v, started) {
				r.calls(fv, depth+1, started, visit)
			}
		case *ssa.Store:
			if alloc, ok := ref.Addr.(*ssa.Alloc); ok && ref.Val == v {
				r.callsCell(alloc, depth+1, started, visit) // a variable a literal captures: go/ssa keeps it in a cell
			}
		}
	}
}

// callsCell visits the calls that run the function a variable's cell holds: loads of it, in
// the function or in the literals that capture it and run in place (or, when started is set,
// are started or deferred).
func (r *Resolver) callsCell(cell ssa.Value, depth int, started bool, visit func(ssa.CallInstruction, int)) {
	refs := cell.Referrers()
	if refs == nil || depth > maxDepth {
		return
	}
	for _, ref := range *refs {
		switch ref := ref.(type) {
		case *ssa.UnOp:
			if ref.Op == token.MUL {
				r.calls(ref, depth+1, started, visit)
			}
		case *ssa.MakeClosure:
			for _, fv := range r.boundIn(ref, cell, started) {
				r.callsCell(fv, depth+1, started, visit)
			}
		}
	}
}

// boundIn returns the free variables of the literal mc makes that v is bound to, when the
// literal runs in place (RunsHere), or, when started is set, is started on a goroutine or
// deferred; none when it is stored.
func (r *Resolver) boundIn(mc *ssa.MakeClosure, v ssa.Value, started bool) []ssa.Value {
	if !r.RunsHere(mc) && !(started && startedHere(mc)) {
		return nil
	}
	var out []ssa.Value
	for j, b := range mc.Bindings {
		if b == v {
			out = append(out, mc.Fn.(*ssa.Function).FreeVars[j])
		}
	}
	return out
}

// startedHere reports whether the literal mc makes is started on a goroutine or deferred by
// the function that makes it: go func() { … }(), defer func() { … }().
func startedHere(mc *ssa.MakeClosure) bool {
	for _, ref := range *mc.Referrers() {
		switch ref := ref.(type) {
		case *ssa.Go:
			if ref.Call.Value == mc {
				return true
			}
		case *ssa.Defer:
			if ref.Call.Value == mc {
				return true
			}
		}
	}
	return false
}

// RunsHere reports whether the function value v — a literal (its MakeClosure, or the function
// itself when it captures nothing) — is called, or handed to a call that runs it, by the
// function that makes it: not started on a goroutine, deferred or stored for later. Kept in a
// local that a closure captures (go/ssa's cell), it runs where a load of the cell is run
// (callsCell: work := func(ctx context.Context) error { … }; call := func() error { return
// r.Do(work) }; call()). A literal converted to a named func type as it is handed over
// (r.RunTask(func(ctx context.Context) error { … }) with RunTask taking a pool.Task) is not
// followed: on real code it led only into a client cache's build (seaweedfs's
// GetRemoteStorageWith, whose build makes a client with its own lifetime), no lost deadline.
func (r *Resolver) RunsHere(v ssa.Value) bool {
	if r.asking[v] {
		return false // a literal that runs itself through the local it is kept in
	}
	if r.asking == nil {
		r.asking = make(map[ssa.Value]bool)
	}
	r.asking[v] = true
	defer delete(r.asking, v)
	refs := v.Referrers()
	if refs == nil {
		return false
	}
	for _, ref := range *refs {
		if st, ok := ref.(*ssa.Store); ok && st.Val == v {
			if cell, ok := st.Addr.(*ssa.Alloc); ok {
				runs := false
				r.callsCell(cell, 0, false, func(ssa.CallInstruction, int) { runs = true })
				if runs {
					return true
				}
			}
		}
		if call, ok := ref.(*ssa.Call); ok {
			if _, mayRun := r.handedTo(call, v); mayRun {
				return true // called, run by the callee, or handed to one out of sight: it may (errgroup's Go)
			}
		}
	}
	return false
}

// handedTo reports whether call hands the function value v to its callee as an argument, and
// whether v may run as part of the call: called itself, run by the callee (runsArg), or handed to
// a callee out of sight.
func (r *Resolver) handedTo(call *ssa.Call, v ssa.Value) (handed, mayRun bool) {
	if call.Call.Value == v {
		return false, true
	}
	for i, arg := range call.Call.Args {
		if arg != v {
			continue
		}
		handed = true
		if runs, known := r.runsArg(&call.Call, i); runs || !known {
			return true, true
		}
	}
	return handed, false
}

// RunsLater reports whether the function value v — a literal (its MakeClosure, or the function
// itself when it captures nothing) — is only handed over to run after its maker has moved on:
// every use of it sends it on a channel (s.jobs <- func() { … }), or hands it to a function known
// not to run it as part of the call (RunsParam in the package, a fact in another: a pool that
// queues it, a helper that starts it on a goroutine of its own or keeps it, time.AfterFunc).
// Any other use — a call, a merge, a store, a return — and it may run in place: false.
func (r *Resolver) RunsLater(v ssa.Value) bool {
	refs := v.Referrers()
	if refs == nil {
		return false
	}
	later := false
	for _, ref := range *refs {
		switch ref := ref.(type) {
		case *ssa.DebugRef:
		case *ssa.Send:
			if ref.X != v {
				return false
			}
			later = true
		case *ssa.Call:
			handed, mayRun := r.handedTo(ref, v)
			if mayRun {
				return false
			}
			later = later || handed
		default:
			return false
		}
	}
	return later
}

// Dynamic returns the methods an interface call invokes when the package can see every
// concrete type its receiver may hold — s.life.Context() where the server's field is only
// ever set to a *lifecycle.Manager — or nil when one is out of sight (a parameter, a call of
// another package). Unlike Targets, it does not fall back on every type implementing the
// interface.
func (r *Resolver) Dynamic(common *ssa.CallCommon) []Target {
	if !common.IsInvoke() {
		return nil
	}
	ts, ok := r.concrete(common.Value)
	if !ok || len(ts) == 0 {
		return nil
	}
	var out []Target
	for _, t := range ts {
		if r.declaredInTest(t) {
			continue // a test's double, stored by the test: never a production value
		}
		obj, _, _ := types.LookupFieldOrMethod(t, true, common.Method.Pkg(), common.Method.Name())
		impl, ok := obj.(*types.Func)
		if !ok || types.IsInterface(impl.Signature().Recv().Type()) {
			return nil // a method promoted from an embedded interface: out of sight
		}
		out = append(out, r.methodTarget(impl, t))
	}
	if len(out) == 0 {
		return nil
	}
	return dedup(out)
}

// declaredInTest reports whether t (or *t) is a named type declared in a _test.go file.
func (r *Resolver) declaredInTest(t types.Type) bool {
	named := typesutil.Named(t)
	return named != nil && inTestFile(r.pkg.Prog.Fset, named.Obj())
}

// methodTarget describes impl, the method of the concrete type t an interface call reaches,
// with its body when it is in this package.
func (r *Resolver) methodTarget(impl *types.Func, t types.Type) Target {
	tg := Target{Obj: impl, Impl: types.TypeString(t, packageName), Double: typesutil.IsTestDouble(t)}
	if fn := r.pkg.Prog.FuncValue(impl); fn != nil && fn.Blocks != nil && fn.Pkg == r.pkg {
		tg.Fn = fn
	}
	return tg
}

// concrete returns the concrete types the interface value v may hold; ok is false when one
// is out of sight. Stores into fields count strictly: every value stored must be in sight, and
// a field or package variable another package may store into (an exported one, or a field of
// another package's type) is out of sight (valueflow.Owned).
// The result of an interface call is what its targets return, when the types its receiver
// may hold are known and their methods are in the package (pkgLogger = pkgLogger.WithName(n)).
func (r *Resolver) concrete(v ssa.Value) ([]types.Type, bool) {
	ic := &invokedResults{active: make(map[*ssa.Call]bool)}
	out, ok := r.concreteIn(v, ic)
	if ok && len(ic.cyclic) > 0 {
		// A call met again while its receiver was being resolved added nothing then: the answer
		// stands only if, from every type found, those calls return no type not found.
		ok = r.closedUnder(out, ic.cyclic)
	}
	return out, ok
}

// invokedResults is the state of one concrete question: the interface calls whose results are
// being resolved, and those met again meanwhile (a value made from itself).
type invokedResults struct {
	active map[*ssa.Call]bool
	cyclic []invokedResult
}

// invokedResult is result Index of an interface call.
type invokedResult struct {
	call  *ssa.Call
	index int
}

// concreteIn is concrete within the state of one question.
func (r *Resolver) concreteIn(v ssa.Value, ic *invokedResults) ([]types.Type, bool) {
	var out []types.Type
	ok := r.flow().EachConcrete(v, valueflow.Owned, func(x ssa.Value) bool {
		if mi, ok := x.(*ssa.MakeInterface); ok {
			out = append(out, mi.X.Type()) // staticOverrides(m): the conversion names the type
			return true
		}
		if call, idx, ok := invokeResult(x); ok {
			if ic.active[call] {
				ic.cyclic = append(ic.cyclic, invokedResult{call, idx})
				return true
			}
			ic.active[call] = true
			ts, ok := r.returnedBy(call, idx, ic)
			delete(ic.active, call)
			out = append(out, ts...)
			return ok
		}
		if k, isConst := x.(*ssa.Const); isConst && k.IsNil() || types.IsInterface(x.Type()) {
			return false // nil, or a value of an interface type: no concrete type in sight
		}
		out = append(out, x.Type()) // a constant of a named type too (fixed("self"))
		return true
	})
	return out, ok
}

// returnedBy returns the concrete types result idx of the interface call may be: what the
// methods of its receiver's types return, each a method of the package with a body.
func (r *Resolver) returnedBy(call *ssa.Call, idx int, ic *invokedResults) ([]types.Type, bool) {
	recv, ok := r.concreteIn(call.Call.Value, ic)
	if !ok {
		return nil, false
	}
	var out []types.Type
	for _, t := range recv {
		ts, ok := r.methodReturns(t, call.Call.Method, idx, ic)
		if !ok {
			return nil, false
		}
		out = append(out, ts...)
	}
	return out, true
}

// methodReturns returns the concrete types t's method m returns as result idx; ok is false
// when the method is not one of the package with a body.
func (r *Resolver) methodReturns(t types.Type, m *types.Func, idx int, ic *invokedResults) ([]types.Type, bool) {
	obj, _, _ := types.LookupFieldOrMethod(t, true, m.Pkg(), m.Name())
	impl, ok := obj.(*types.Func)
	if !ok {
		return nil, false
	}
	fn := r.pkg.Prog.FuncValue(impl)
	if fn == nil || fn.Blocks == nil || fn.Pkg != r.pkg {
		return nil, false
	}
	var out []types.Type
	for _, rv := range valueflow.Returned(fn, idx) {
		ts, ok := r.concreteIn(rv, ic)
		if !ok {
			return nil, false
		}
		out = append(out, ts...)
	}
	return out, true
}

// closedUnder reports whether the calls of cyclic, made on a value of any type of ts, return
// only types of ts.
func (r *Resolver) closedUnder(ts []types.Type, cyclic []invokedResult) bool {
	for _, c := range cyclic {
		for _, t := range ts {
			ic := &invokedResults{active: map[*ssa.Call]bool{c.call: true}}
			got, ok := r.methodReturns(t, c.call.Call.Method, c.index, ic)
			if !ok {
				return false
			}
			for _, g := range got {
				if !slices.ContainsFunc(ts, func(t types.Type) bool { return types.Identical(t, g) }) {
					return false
				}
			}
		}
	}
	return true
}

// invokeResult returns the interface call whose result x is (the call itself, or one of its
// results extracted), with the result's index.
func invokeResult(x ssa.Value) (*ssa.Call, int, bool) {
	idx := 0
	if e, ok := x.(*ssa.Extract); ok {
		x, idx = e.Tuple, e.Index
	}
	call, ok := x.(*ssa.Call)
	if !ok || !call.Call.IsInvoke() {
		return nil, 0, false
	}
	return call, idx, true
}
