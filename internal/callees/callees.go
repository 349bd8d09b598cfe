// Package callees finds the functions a call in the analysed package may invoke, beyond its
// static callee: the implementations of an interface method declared in the package and the
// packages it imports, and the functions stored into a func-typed struct field in the
// package. Where no candidate is known, it returns none: rules stay silent.
package callees

import (
	"go/token"
	"go/types"
	"strings"
	"sync"

	"golang.org/x/tools/go/ssa"

	"github.com/deadlinelint/deadlinelint/internal/typesutil"
)

// Target is one function a call may invoke.
type Target struct {
	Obj *types.Func   // the declared function or method; nil for a function literal
	Fn  *ssa.Function // its SSA body when it is in the analysed package, else nil
	// Impl is the concrete type providing an interface method ("*pgRepo"), or "".
	Impl string
	// Field is the func-typed struct field the function was stored in, or "".
	Field string
}

// Resolver answers Targets for the calls of one package.
type Resolver struct {
	pkg     *ssa.Package
	funcs   []*ssa.Function
	owned   func(types.Object) bool
	named   []*types.TypeName                 // the owned concrete types visible to the package
	impls   map[*types.Func][]Target          // per interface method
	implsOf map[*types.Interface][]types.Type // per interface: the implementing types (T or *T)
	fields  map[*types.Var][]Target
}

// New returns a Resolver for pkg, whose source functions are funcs. Interface calls are
// followed only for interfaces that owned accepts (the user's own, not io.Closer: a user type
// that happens to implement a standard interface is not what a handler's io.Closer is), and
// only into implementations it accepts.
func New(pkg *ssa.Package, funcs []*ssa.Function, owned func(types.Object) bool) *Resolver {
	return &Resolver{
		pkg: pkg, funcs: funcs, owned: owned,
		impls:   make(map[*types.Func][]Target),
		implsOf: make(map[*types.Interface][]types.Type),
	}
}

// Targets returns the functions the call may invoke.
func (r *Resolver) Targets(common *ssa.CallCommon) []Target {
	if common.IsInvoke() {
		return r.implementations(common.Method)
	}
	if fn := common.StaticCallee(); fn != nil {
		return []Target{r.target(fn)}
	}
	if load, ok := common.Value.(*ssa.UnOp); ok {
		if fa, ok := load.X.(*ssa.FieldAddr); ok {
			return r.fieldFuncs(typesutil.FieldVar(fa.X.Type(), fa.Field))
		}
	}
	return nil
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
			if impl, ok := obj.(*types.Func); ok {
				tg := Target{Obj: impl, Impl: types.TypeString(t, packageName)}
				if fn := r.pkg.Prog.FuncValue(impl); fn != nil && fn.Blocks != nil && fn.Pkg == r.pkg {
					tg.Fn = fn
				}
				out = append(out, tg)
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
	if r.named == nil {
		r.named = []*types.TypeName{}
		for _, p := range packages(r.pkg.Pkg) {
			for _, tn := range concreteTypes(p) {
				if r.owned(tn) && !inTestFile(r.pkg.Prog.Fset, tn) {
					r.named = append(r.named, tn)
				}
			}
		}
	}
	var out []types.Type
	for _, tn := range r.named {
		for _, t := range []types.Type{tn.Type(), types.NewPointer(tn.Type())} {
			if types.Implements(t, iface) {
				out = append(out, t)
				break
			}
		}
	}
	r.implsOf[iface] = out
	return out
}

// inTestFile reports whether tn is declared in a _test.go file: a test double, which never
// stands behind an interface in production code.
func inTestFile(fset *token.FileSet, tn *types.TypeName) bool {
	return strings.HasSuffix(fset.Position(tn.Pos()).Filename, "_test.go")
}

// concreteByPkg caches concreteTypes per package: every package importing p asks again.
var concreteByPkg sync.Map // *types.Package -> []*types.TypeName

// concreteTypes returns the named, non-alias, non-interface types declared at package level
// in p, in the order of their names.
func concreteTypes(p *types.Package) []*types.TypeName {
	if v, ok := concreteByPkg.Load(p); ok {
		return v.([]*types.TypeName)
	}
	var out []*types.TypeName
	scope := p.Scope()
	for _, name := range scope.Names() {
		if tn, ok := scope.Lookup(name).(*types.TypeName); ok && !tn.IsAlias() && !types.IsInterface(tn.Type()) {
			out = append(out, tn)
		}
	}
	v, _ := concreteByPkg.LoadOrStore(p, out)
	return v.([]*types.TypeName)
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

// fieldFuncs returns the functions stored into field anywhere in the package. Other values
// stored there (a parameter, a call's result) add no candidates: the functions the package
// stores are among those the field may hold, as the implementations it sees are among those
// of an interface.
func (r *Resolver) fieldFuncs(field *types.Var) []Target {
	if field == nil {
		return nil
	}
	if r.fields == nil {
		r.fields = r.collectFieldStores()
	}
	return r.fields[field]
}

// collectFieldStores maps each func-typed field to the functions stored into it.
func (r *Resolver) collectFieldStores() map[*types.Var][]Target {
	out := make(map[*types.Var][]Target)
	for _, fn := range r.funcs {
		for _, b := range fn.Blocks {
			for _, instr := range b.Instrs {
				st, ok := instr.(*ssa.Store)
				if !ok {
					continue
				}
				fa, ok := st.Addr.(*ssa.FieldAddr)
				if !ok {
					continue
				}
				field := typesutil.FieldVar(fa.X.Type(), fa.Field)
				if field == nil {
					continue
				}
				if _, isFunc := field.Type().Underlying().(*types.Signature); !isFunc {
					continue
				}
				var t Target
				val := st.Val
				if ct, ok := val.(*ssa.ChangeType); ok {
					val = ct.X // a function assigned to a field of a named func type
				}
				switch v := val.(type) {
				case *ssa.Function:
					t = r.target(v)
				case *ssa.MakeClosure:
					t = r.target(v.Fn.(*ssa.Function))
				default:
					continue // not a function of the package: no candidate
				}
				t.Field = field.Name()
				out[field] = append(out[field], t)
			}
		}
	}
	return out
}
