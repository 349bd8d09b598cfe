// Package valueflow follows a value of one package back to where it is made: through
// conversions, phis, the values a literal captures, loads of local and package variables,
// struct fields and container elements stored in the package, and the results of the package's
// own functions. It is the one walk under callees (which functions a func value may hold) and
// missingdeadline (which connection a client call goes through); ctxorigin asks more of a ctx
// (derivations, deadlines) and walks on its own.
package valueflow

import (
	"go/token"
	"go/types"

	"golang.org/x/tools/go/ssa"

	"github.com/deadlinelint/deadlinelint/internal/typesutil"
)

// maxValues bounds the values one walk visits; a walk that needs more is out of sight.
const maxValues = 2000

// Flow indexes the stores of one package. It is not safe for concurrent use.
type Flow struct {
	pkg    *ssa.Package
	funcs  []*ssa.Function
	stores map[any][]ssa.Value // per field (*types.Var), package variable (*ssa.Global), element type (elemKey)
	elems  map[*types.Var]*Elements
	// open holds the fields and package variables whose address goes where the package does
	// not see what is stored through it (store.Inject(&s.backend), fx.Populate(&defStore)):
	// their stores are not all in the index.
	open map[any]bool
	// filled holds the fields and package variables holding a map or slice the package hands
	// to a call that may store into it (plugins.RegisterAll(s.backends)): their elements are
	// not all in the index.
	filled map[any]bool
	// handed holds, per package variable, the calls the package hands its address to
	// (flag.DurationVar(&timeout, …)).
	handed map[*ssa.Global][]*ssa.Call
	// retyped holds the fields of struct types whose values the package also makes from a
	// struct of another type with the same layout — a conversion, sources(remote{load: f}), or
	// an assignment between identical unnamed struct types — whose field stores are indexed
	// under the other type's fields.
	retyped map[*types.Var]bool
}

// Elements are the values the package stores into the elements of the maps, slices or arrays
// one struct field holds (s.tenants[name] = t, s.shards = append(s.shards, ctx)), and the
// functions that store them.
type Elements struct {
	Values  []ssa.Value
	Storers []*ssa.Function
}

// New returns a Flow for pkg, whose source functions (with their literals) are funcs.
func New(pkg *ssa.Package, funcs []*ssa.Function) *Flow {
	return &Flow{pkg: pkg, funcs: funcs}
}

// Package returns the package whose stores f indexes.
func (f *Flow) Package() *ssa.Package { return f.pkg }

// A Mode says how stores into a field, a package variable or a container's elements count.
type Mode int

const (
	// Strict: every value stored there must be accepted.
	Strict Mode = iota
	// Lenient: a value stored there that is out of sight (a parameter, another package's
	// result) adds nothing; the ones in sight are among those the place may hold, as the
	// implementations a package sees are among those of an interface. At least one must be.
	Lenient
	// Owned: as Strict, and only through places no other package can store into: not an
	// exported field or package variable, nor a field of another package's type (s.Leaders
	// = remote{db} in a package that wires the server), whose stores the package cannot see.
	Owned
	// Sealed: as Owned, for a yes that silences: nor through the elements of a container but a
	// local literal kept where it is made (a package's map of funcs may leave it by a getter, a
	// store, a conversion to any), nor through a field of a generic type (the stores into one
	// instance's field are not the reads of another's), nor through a field of a struct type
	// the package also makes from another struct type (retyped).
	Sealed
)

// owned reports whether the mode only follows places no other package can store into.
func (m Mode) owned() bool { return m == Owned || m == Sealed }

// Each calls leaf on every value v may hold where it is made — a function, a closure, a
// constant, a parameter, a call the walk does not see into — and reports whether leaf accepted
// each and every way was in sight. Values met again (a loop) add nothing.
func (f *Flow) Each(v ssa.Value, mode Mode, leaf func(ssa.Value) bool) bool {
	return f.EachUntil(v, mode, nil, leaf)
}

// EachUntil is Each, with the calls stop accepts taken as leaves rather than followed into the
// values their callee returns: a constructor of the package whose arguments say what the value
// it makes holds (newBatch(s.markSynced)).
func (f *Flow) EachUntil(v ssa.Value, mode Mode, stop func(*ssa.Call) bool, leaf func(ssa.Value) bool) bool {
	w := &walk{f: f, mode: mode, leaf: leaf, stop: stop, seen: make(map[ssa.Value]bool)}
	return w.each(v)
}

// EachConcrete is Each for the concrete types an interface value may hold: a value of a
// concrete type made into an interface (MakeInterface) is a leaf, whatever that value was made
// from — staticOverrides(m), a named map converted from a parameter, holds a staticOverrides.
func (f *Flow) EachConcrete(v ssa.Value, mode Mode, leaf func(ssa.Value) bool) bool {
	w := &walk{f: f, mode: mode, leaf: leaf, typed: true, seen: make(map[ssa.Value]bool)}
	return w.each(v)
}

// holdsValuesOfUnknownType reports whether a value of type t may hold interface or function
// values — as elements, fields, or behind a pointer — whose own dynamic types depend on where
// the value came from: chain(list) converted from a parameter runs whatever the list holds, so
// its type alone does not say what its methods call.
func holdsValuesOfUnknownType(t types.Type, seen map[types.Type]bool) bool {
	if seen[t] {
		return false // a recursive type: its other parts answer
	}
	seen[t] = true
	switch u := t.Underlying().(type) {
	case *types.Interface, *types.Signature, *types.TypeParam:
		return true
	case *types.Pointer:
		return holdsValuesOfUnknownType(u.Elem(), seen)
	case *types.Slice:
		return holdsValuesOfUnknownType(u.Elem(), seen)
	case *types.Array:
		return holdsValuesOfUnknownType(u.Elem(), seen)
	case *types.Chan:
		return holdsValuesOfUnknownType(u.Elem(), seen)
	case *types.Map:
		return holdsValuesOfUnknownType(u.Key(), seen) || holdsValuesOfUnknownType(u.Elem(), seen)
	case *types.Struct:
		for i := 0; i < u.NumFields(); i++ {
			if holdsValuesOfUnknownType(u.Field(i).Type(), seen) {
				return true
			}
		}
	}
	return false
}

type walk struct {
	f     *Flow
	mode  Mode
	leaf  func(ssa.Value) bool
	stop  func(*ssa.Call) bool
	typed bool // EachConcrete: a MakeInterface of a concrete value is a leaf
	seen  map[ssa.Value]bool
}

func (w *walk) each(v ssa.Value) bool {
	if w.seen[v] {
		return true
	}
	if w.seen[v] = true; len(w.seen) > maxValues {
		return false
	}
	switch v := v.(type) {
	case *ssa.MakeInterface:
		if w.typed && !types.IsInterface(v.X.Type()) && !holdsValuesOfUnknownType(v.X.Type(), map[types.Type]bool{}) {
			break // its dynamic type is v.X's, wherever v.X comes from
		}
		return w.each(v.X)
	case *ssa.ChangeInterface:
		return w.each(v.X)
	case *ssa.ChangeType:
		return w.each(v.X)
	case *ssa.Phi:
		return w.all(v.Edges)
	case *ssa.FreeVar: // captured by value
		return w.all(Bindings(v))
	case *ssa.Field:
		return w.fieldOf(v.X.Type(), v.Field)
	case *ssa.Lookup, *ssa.Index: // m[k], a[i] of an array value
		return w.element(Container(v))
	case *ssa.Extract:
		switch t := v.Tuple.(type) {
		case *ssa.Lookup: // x, ok := m[k]
			if c := Container(v); c != nil {
				return w.element(c)
			}
			return false
		case *ssa.Call:
			if vs, ok := w.f.results(t, v.Index); ok {
				return w.all(vs)
			}
		}
	case *ssa.Call:
		if w.stop != nil && w.stop(v) {
			break
		}
		if vs, ok := w.f.results(v, 0); ok {
			return w.all(vs)
		}
	case *ssa.UnOp:
		if v.Op != token.MUL {
			return false
		}
		if a, ok := v.X.(*ssa.Alloc); ok && builtHere(a) {
			break // a struct value its function builds field by field (proc{ctx: parent}): the value itself
		}
		return w.load(v.X)
	}
	return w.leaf(v)
}

// builtHere reports whether alloc is a struct variable its function fills field by field and
// reads whole — a composite literal, T{f: x} — with its address going nowhere else.
func builtHere(alloc *ssa.Alloc) bool {
	if _, ok := alloc.Type().(*types.Pointer).Elem().Underlying().(*types.Struct); !ok {
		return false
	}
	for _, ref := range *alloc.Referrers() {
		switch ref := ref.(type) {
		case *ssa.UnOp, *ssa.DebugRef:
		case *ssa.FieldAddr:
			for _, use := range *ref.Referrers() {
				if st, ok := use.(*ssa.Store); !ok || st.Addr != ref {
					return false
				}
			}
		default:
			return false
		}
	}
	return true
}

// all reports whether every value of vs is accepted, and that there is one.
func (w *walk) all(vs []ssa.Value) bool {
	for _, v := range vs {
		if !w.each(v) {
			return false
		}
	}
	return len(vs) > 0
}

// load follows a load from addr.
func (w *walk) load(addr ssa.Value) bool {
	switch a := addr.(type) {
	case *ssa.Alloc: // a local variable a literal captures, or whose address is taken
		return w.all(LocalStores(a))
	case *ssa.FreeVar: // the same variable, as the literal sees it
		bs := Bindings(a)
		for _, b := range bs {
			if !w.load(b) {
				return false
			}
		}
		return len(bs) > 0
	case *ssa.Global:
		if w.mode.owned() && !w.f.private(a.Object()) {
			return false
		}
		return w.stored(a)
	case *ssa.FieldAddr:
		return w.fieldOf(a.X.Type(), a.Field)
	case *ssa.IndexAddr: // s[i]
		return w.element(a.X)
	}
	return false
}

// element follows an element of the map, slice or array c: the values stored into a literal
// the function makes and keeps, or those the package stores into containers of its type. In
// the Owned mode, only of a container the package makes itself on every way c may come
// (madeHere): a parameter's slice, kept in a field (&chain{list: list}), holds its caller's
// values, which no store of the package shows.
func (w *walk) element(c ssa.Value) bool {
	if vs, ok := LocalElements(c); ok {
		if w.mode != Lenient && localFilledElsewhere(c) {
			return false // store.Fill(l) or copy(l, …) may have put anything there
		}
		return w.all(vs)
	}
	if w.mode == Sealed || w.mode == Owned && !w.f.madeHere(c) {
		return false
	}
	return w.stored(elemKey(c.Type()))
}

// madeHere reports whether the container c is made by the package on every way it may come —
// a composite literal, make, an append to such a container, an array variable or field, a nil
// one, through the package's own unexported variables and fields and its functions' results —
// and filled only by stores the package makes (filledElsewhere): not a parameter, another
// package's result, or a container handed to a call that may fill it (copy(l, list),
// plug.Fill(m, db)).
func (f *Flow) madeHere(c ssa.Value) bool { return f.made(c, map[ssa.Value]bool{}) }

func (f *Flow) made(c ssa.Value, seen map[ssa.Value]bool) bool {
	if seen[c] {
		return true
	}
	if seen[c] = true; len(seen) > maxValues {
		return false
	}
	all := func(vs []ssa.Value) bool {
		for _, v := range vs {
			if !f.made(v, seen) {
				return false
			}
		}
		return true
	}
	switch c := c.(type) {
	case *ssa.MakeMap, *ssa.MakeSlice, *ssa.Alloc:
		return !filledElsewhere(c, 0)
	case *ssa.Const:
		return true
	case *ssa.Slice:
		return f.made(c.X, seen)
	case *ssa.ChangeType:
		return f.made(c.X, seen)
	case *ssa.Phi:
		return all(c.Edges)
	case *ssa.UnOp: // a load: of what is stored where it is loaded from
		return c.Op == token.MUL && f.madeAt(c.X, all)
	case *ssa.FieldAddr, *ssa.Global: // an array field or variable, indexed in place
		return f.madeAt(c, all)
	case *ssa.Call:
		if b, ok := c.Call.Value.(*ssa.Builtin); ok && b.Name() == "append" {
			return all(c.Call.Args)
		}
		if vs, ok := f.results(c, 0); ok {
			return all(vs)
		}
	case *ssa.Extract:
		if call, ok := c.Tuple.(*ssa.Call); ok {
			if vs, ok := f.results(call, c.Index); ok {
				return all(vs)
			}
		}
	}
	return false
}

// madeAt reports whether every value stored at addr — a local variable, an unexported package
// variable or field of the package — is made here (all); an array local is the container
// itself.
func (f *Flow) madeAt(addr ssa.Value, all func([]ssa.Value) bool) bool {
	switch a := addr.(type) {
	case *ssa.Alloc:
		if _, arr := a.Type().(*types.Pointer).Elem().Underlying().(*types.Array); arr {
			return !filledElsewhere(a, 0)
		}
		return all(LocalStores(a))
	case *ssa.Global:
		if !f.private(a.Object()) {
			return false
		}
		return all(f.storedTo(a)) && !f.open[a] && !f.filled[a]
	case *ssa.FieldAddr:
		fv := typesutil.FieldVar(a.X.Type(), a.Field)
		if fv == nil || !f.private(fv) {
			return false
		}
		return all(f.storedTo(fv)) && !f.open[fv] && !f.filled[fv]
	}
	return false
}

// private reports whether obj, a package variable or a struct field, is an unexported one of
// the package: only the package's own code stores into it.
func (f *Flow) private(obj types.Object) bool {
	return !obj.Exported() && obj.Pkg() == f.pkg.Pkg
}

// filledElsewhere reports whether the container c (or a slice of it) is handed to a call that
// may store into it: copy's destination, or any function but the builtins that only read it
// or append to a copy. Slices of slices too deep to follow may be.
func filledElsewhere(c ssa.Value, depth int) bool {
	if depth > 4 {
		return true
	}
	refs := c.Referrers()
	if refs == nil {
		return false
	}
	for _, ref := range *refs {
		switch ref := ref.(type) {
		case *ssa.Slice:
			if filledElsewhere(ref, depth+1) {
				return true
			}
		case ssa.CallInstruction:
			common := ref.Common()
			if b, ok := common.Value.(*ssa.Builtin); ok {
				if b.Name() == "copy" && len(common.Args) > 0 && common.Args[0] == c {
					return true
				}
				continue // len, cap, append, copy's source, delete, clear
			}
			for _, a := range common.Args {
				if a == c {
					return true
				}
			}
		}
	}
	return false
}

// fieldOf follows field i of the struct t (or *t) points to, as field does; in the Sealed mode
// not of a generic type's.
func (w *walk) fieldOf(t types.Type, i int) bool {
	if named := typesutil.Named(t); w.mode == Sealed && named != nil && (named.TypeParams().Len() > 0 || named.TypeArgs().Len() > 0) {
		return false
	}
	return w.field(typesutil.FieldVar(t, i))
}

// retype records the fields of the struct type to when a value of the struct type from, whose
// fields are other variables, becomes one of it.
func (f *Flow) retype(from, to types.Type) {
	src, ok := from.Underlying().(*types.Struct)
	dst, ok2 := to.Underlying().(*types.Struct)
	if !ok || !ok2 || src == dst || src.NumFields() != dst.NumFields() {
		return
	}
	for i := range dst.NumFields() {
		if src.Field(i) != dst.Field(i) {
			f.retyped[dst.Field(i)] = true
		}
	}
}

// field follows the values the package stores into the field fv, as the walk's mode says.
func (w *walk) field(fv *types.Var) bool {
	if w.mode.owned() && fv != nil && !w.f.private(fv) {
		return false
	}
	if w.mode == Sealed && fv != nil {
		if w.f.build(); w.f.retyped[fv] {
			return false
		}
	}
	return w.stored(fv)
}

// stored follows the values the package stores into key, as the walk's mode says.
func (w *walk) stored(key any) bool {
	if key == nil || key == (*types.Var)(nil) {
		return false
	}
	vs := w.f.storedTo(key)
	if w.mode != Lenient {
		return !w.f.open[key] && w.all(vs)
	}
	any := false
	for _, v := range vs {
		if w.each(v) {
			any = true
		}
	}
	return any
}

// results returns the values result idx of call may be when its callee is a function of the
// package with a body (the generic origin of an instance): the values it returns there.
func (f *Flow) results(call *ssa.Call, idx int) ([]ssa.Value, bool) {
	callee := call.Common().StaticCallee()
	if call.Common().IsInvoke() || callee == nil {
		return nil, false
	}
	if o := callee.Origin(); o != nil {
		callee = o
	}
	if callee.Pkg != f.pkg || callee.Blocks == nil {
		return nil, false
	}
	return Returned(callee, idx), true
}

// ElementsOf returns what the package stores into the elements of the containers field holds.
func (f *Flow) ElementsOf(field *types.Var) Elements {
	f.storedTo(nil)
	if e := f.elems[field]; e != nil {
		return *e
	}
	return Elements{}
}

// StoredTo returns the values the package's functions store into the package-level variable
// g, its initialiser's among them.
func (f *Flow) StoredTo(g *ssa.Global) []ssa.Value { return f.storedTo(g) }

// HandedTo returns the calls the package's functions hand the address of the package-level
// variable g to (flag.DurationVar(&timeout, …)).
func (f *Flow) HandedTo(g *ssa.Global) []*ssa.Call {
	f.storedTo(nil)
	return f.handed[g]
}

// storedTo returns the values the package stores into key.
func (f *Flow) storedTo(key any) []ssa.Value {
	f.build()
	return f.stores[key]
}

// build indexes the package's stores, once.
func (f *Flow) build() {
	if f.stores == nil {
		f.stores = make(map[any][]ssa.Value)
		f.elems = make(map[*types.Var]*Elements)
		f.open = make(map[any]bool)
		f.filled = make(map[any]bool)
		f.handed = make(map[*ssa.Global][]*ssa.Call)
		f.retyped = make(map[*types.Var]bool)
		funcs := f.funcs
		if initFn := f.pkg.Func("init"); initFn != nil { // package variables' initialisers
			funcs = append([]*ssa.Function{initFn}, funcs...)
		}
		for _, fn := range funcs {
			f.index(fn)
		}
	}
}

func (f *Flow) index(fn *ssa.Function) {
	element := func(c ssa.Value, vs ...ssa.Value) {
		if k := elemKey(c.Type()); k != nil {
			f.stores[k] = append(f.stores[k], vs...)
		}
		if field := ContainerField(c); field != nil {
			e := f.elems[field]
			if e == nil {
				e = new(Elements)
				f.elems[field] = e
			}
			e.Values = append(e.Values, vs...)
			e.Storers = append(e.Storers, fn)
		}
	}
	for _, b := range fn.Blocks {
		for _, instr := range b.Instrs {
			f.indexPlaces(instr)
			switch instr := instr.(type) {
			case *ssa.Store:
				switch a := instr.Addr.(type) {
				case *ssa.Global:
					f.stores[a] = append(f.stores[a], instr.Val)
				case *ssa.FieldAddr:
					if v := typesutil.FieldVar(a.X.Type(), a.Field); v != nil {
						f.stores[v] = append(f.stores[v], instr.Val)
					}
				case *ssa.IndexAddr:
					element(a.X, instr.Val)
				}
			case *ssa.MapUpdate:
				element(instr.Map, instr.Value)
			case *ssa.Call:
				for _, arg := range instr.Call.Args {
					if g, ok := arg.(*ssa.Global); ok {
						f.handed[g] = append(f.handed[g], instr)
					}
				}
				// s.shards = append(s.shards, x)
				if b, ok := instr.Call.Value.(*ssa.Builtin); ok && b.Name() == "append" && len(instr.Call.Args) == 2 {
					if vs, ok := LocalElements(instr.Call.Args[1]); ok && ContainerField(instr.Call.Args[0]) != nil {
						element(instr.Call.Args[0], vs...)
					}
				}
			}
		}
	}
}

// indexPlaces records, for instr, the fields and package variables whose stores the index
// cannot all see: one whose address instr hands on (open), one holding a map or slice instr
// loads and hands to a call that may fill it (filled), the fields of a struct type instr makes
// from a struct of another type (retyped). Only places that may hold interface or
// function values count: what such a place holds decides which code a call runs.
func (f *Flow) indexPlaces(instr ssa.Instruction) {
	switch instr := instr.(type) {
	case *ssa.ChangeType:
		f.retype(instr.X.Type(), instr.Type())
	case *ssa.Convert:
		f.retype(instr.X.Type(), instr.Type())
	case *ssa.Store:
		if p, ok := instr.Addr.Type().Underlying().(*types.Pointer); ok {
			f.retype(instr.Val.Type(), p.Elem())
		}
	case *ssa.FieldAddr:
		if fv := typesutil.FieldVar(instr.X.Type(), instr.Field); fv != nil && holdsCode(fv.Type()) && addressGoesOut(instr) {
			f.open[fv] = true
		}
	case *ssa.UnOp:
		if instr.Op != token.MUL || !filledElsewhere(instr, 0) {
			break
		}
		switch a := instr.X.(type) {
		case *ssa.FieldAddr:
			if fv := typesutil.FieldVar(a.X.Type(), a.Field); fv != nil && holdsCode(fv.Type()) {
				f.filled[fv] = true
			}
		case *ssa.Global:
			if holdsCode(a.Type().(*types.Pointer).Elem()) {
				f.filled[a] = true
			}
		}
	}
	var ops [8]*ssa.Value
	for _, op := range instr.Operands(ops[:0]) {
		if g, ok := (*op).(*ssa.Global); ok && holdsCode(g.Type().(*types.Pointer).Elem()) && !addressUse(instr, g) {
			f.open[g] = true
		}
	}
}

// holdsCode reports whether a value of type t may hold interface or function values.
func holdsCode(t types.Type) bool { return holdsValuesOfUnknownType(t, map[types.Type]bool{}) }

// addressGoesOut reports whether the address addr is used other than to load from or store to
// it, or to reach a part of what it points to.
func addressGoesOut(addr ssa.Value) bool {
	for _, ref := range *addr.Referrers() {
		if !addressUse(ref, addr) {
			return true
		}
	}
	return false
}

// addressUse reports whether instr uses the address addr only to load from it, store to it, or
// take the address of a part of what it points to.
func addressUse(instr ssa.Instruction, addr ssa.Value) bool {
	switch instr := instr.(type) {
	case *ssa.Store:
		return instr.Addr == addr && instr.Val != addr
	case *ssa.UnOp:
		return instr.Op == token.MUL
	case *ssa.FieldAddr, *ssa.IndexAddr, *ssa.DebugRef:
		return true
	}
	return false
}

// localFilledElsewhere reports whether the local container c (LocalElements: a slice of an
// array the function makes, the array itself) is handed to a call that may store into it.
func localFilledElsewhere(c ssa.Value) bool {
	if s, ok := c.(*ssa.Slice); ok {
		c = s.X
	}
	return filledElsewhere(c, 0)
}

// Container returns the map, slice or array an element read v is read from (m[k], a[i],
// x, ok := m[k], the address &s[i]), or nil.
func Container(v ssa.Value) ssa.Value {
	switch v := v.(type) {
	case *ssa.Lookup:
		return v.X
	case *ssa.Index:
		return v.X
	case *ssa.IndexAddr:
		return v.X
	case *ssa.Extract:
		if l, ok := v.Tuple.(*ssa.Lookup); ok && v.Index == 0 {
			return l.X
		}
	}
	return nil
}

// ContainerField returns the struct field a container c is, loaded (s.tenants) or addressed
// (&s.shards, for an array field), or nil.
func ContainerField(c ssa.Value) *types.Var {
	if u, ok := c.(*ssa.UnOp); ok && u.Op == token.MUL {
		c = u.X
	}
	if fa, ok := c.(*ssa.FieldAddr); ok {
		return typesutil.FieldVar(fa.X.Type(), fa.Field)
	}
	return nil
}

// elemKey is the key of the elements of a map, slice or array type (or a pointer to an
// array): its element type, as a string, so that identical types meet — a field's
// []func(ctx context.Context, id string) error and the literal []func(context.Context,
// string) error stored into it too. nil for other types.
func elemKey(t types.Type) any {
	if p, ok := t.Underlying().(*types.Pointer); ok {
		t = p.Elem()
	}
	switch u := t.Underlying().(type) {
	case *types.Map:
		return "elem " + types.TypeString(unnamedParams(u.Elem()), nil)
	case *types.Slice:
		return "elem " + types.TypeString(unnamedParams(u.Elem()), nil)
	case *types.Array:
		return "elem " + types.TypeString(unnamedParams(u.Elem()), nil)
	}
	return nil
}

// unnamedParams returns t, a func type literal (or an alias of one) without the names of its
// parameters and results (which identical types need not share), or t itself for any other type.
func unnamedParams(t types.Type) types.Type {
	sig, ok := types.Unalias(t).(*types.Signature)
	if !ok {
		return t
	}
	strip := func(tup *types.Tuple) *types.Tuple {
		vars := make([]*types.Var, tup.Len())
		for i := range vars {
			vars[i] = types.NewParam(token.NoPos, nil, "", unnamedParams(tup.At(i).Type()))
		}
		return types.NewTuple(vars...)
	}
	return types.NewSignatureType(nil, nil, nil, strip(sig.Params()), strip(sig.Results()), sig.Variadic())
}

// LocalElements returns the values stored into the elements of a map or slice made in the
// function that reads it and kept there (a literal: steps := map[string]func(){…}; for _, f
// := range []func(){a, b}); ok is false when the container comes from elsewhere, or goes
// somewhere the function does not see.
func LocalElements(c ssa.Value) ([]ssa.Value, bool) {
	switch c := c.(type) {
	case *ssa.MakeMap:
		var out []ssa.Value
		for _, ref := range *c.Referrers() {
			switch ref := ref.(type) {
			case *ssa.MapUpdate:
				out = append(out, ref.Value)
			case *ssa.Lookup, *ssa.Range, *ssa.DebugRef:
			default:
				return nil, false // handed on: others may add to it
			}
		}
		return out, true
	case *ssa.Slice:
		if alloc, ok := c.X.(*ssa.Alloc); ok {
			return LocalElements(alloc)
		}
	case *ssa.Alloc: // the array behind a slice literal, or variadic arguments
		return arrayStores(c, true, 0)
	}
	return nil, false
}

// arrayStores returns the values the function stores into the elements of x — a local array,
// or a slice of one — through it or its slices (l[0] = v); ok is false when an element's
// address goes elsewhere, or when the array itself (whole) is used but to index or slice it.
// A slice may go anywhere: handed to a call, it is what the call is given (variadic
// arguments); whether the call fills it is filledElsewhere's question.
func arrayStores(x ssa.Value, whole bool, depth int) (out []ssa.Value, ok bool) {
	if depth > 4 {
		return nil, false
	}
	for _, ref := range *x.Referrers() {
		switch ref := ref.(type) {
		case *ssa.IndexAddr:
			for _, use := range *ref.Referrers() {
				switch use := use.(type) {
				case *ssa.Store:
					if use.Addr != ref {
						return nil, false
					}
					out = append(out, use.Val)
				case *ssa.UnOp, *ssa.DebugRef:
				default:
					return nil, false
				}
			}
		case *ssa.Slice:
			vs, ok := arrayStores(ref, false, depth+1)
			if !ok {
				return nil, false
			}
			out = append(out, vs...)
		case *ssa.DebugRef:
		default:
			if whole {
				return nil, false
			}
		}
	}
	return out, true
}

// LocalStores returns the values stored to the local variable alloc, or nil when something
// else may assign it: its address goes elsewhere, or a literal that captures it stores to it.
// Literals that only read it are fine.
func LocalStores(alloc *ssa.Alloc) []ssa.Value {
	if !OnlyLocalStores(alloc) {
		return nil
	}
	var out []ssa.Value
	for _, ref := range *alloc.Referrers() {
		if st, ok := ref.(*ssa.Store); ok {
			out = append(out, st.Val)
		}
	}
	return out
}

// OnlyLocalStores reports whether the variable addr is assigned only by stores in its own
// function: no literal that captures it assigns it, and its address goes nowhere else.
func OnlyLocalStores(addr ssa.Value) bool {
	for _, ref := range *addr.Referrers() {
		switch ref := ref.(type) {
		case *ssa.Store:
			if ref.Addr != addr {
				return false
			}
		case *ssa.UnOp, *ssa.DebugRef:
		case *ssa.MakeClosure:
			for _, fv := range BoundTo(ref, addr) {
				if !OnlyLocalStores(fv) || hasStores(fv) {
					return false
				}
			}
		default:
			return false
		}
	}
	return true
}

func hasStores(v ssa.Value) bool {
	for _, ref := range *v.Referrers() {
		if st, ok := ref.(*ssa.Store); ok && st.Addr == v {
			return true
		}
	}
	return false
}

// BoundTo returns the free variables of the literal mc makes that it binds to v (the inverse of
// Bindings), or none when mc's function is not a literal in sight.
func BoundTo(mc *ssa.MakeClosure, v ssa.Value) []*ssa.FreeVar {
	fn, ok := mc.Fn.(*ssa.Function)
	if !ok || len(fn.FreeVars) != len(mc.Bindings) {
		return nil
	}
	var out []*ssa.FreeVar
	for i, b := range mc.Bindings {
		if b == v {
			out = append(out, fn.FreeVars[i])
		}
	}
	return out
}

// Bindings returns the values the MakeClosure instructions creating fv's literal bind to fv.
func Bindings(fv *ssa.FreeVar) []ssa.Value {
	fn := fv.Parent()
	refs := fn.Referrers()
	if fn.Parent() == nil || refs == nil {
		return nil
	}
	idx := -1
	for i, x := range fn.FreeVars {
		if x == fv {
			idx = i
		}
	}
	var out []ssa.Value
	for _, ref := range *refs {
		if mc, ok := ref.(*ssa.MakeClosure); ok && mc.Fn == fn && idx >= 0 {
			out = append(out, mc.Bindings[idx])
		}
	}
	return out
}

// Returned returns the values fn returns as result idx, from every return statement.
func Returned(fn *ssa.Function, idx int) []ssa.Value {
	var vs []ssa.Value
	for _, b := range fn.Blocks {
		if len(b.Instrs) == 0 {
			continue
		}
		if ret, ok := b.Instrs[len(b.Instrs)-1].(*ssa.Return); ok && idx < len(ret.Results) {
			vs = append(vs, ret.Results[idx])
		}
	}
	return vs
}

// Captured returns the value a function literal's captured variable v holds — a free variable,
// or a load of one that go/ssa keeps in a cell, in the literal or in the function that declares
// it — when the literal's one maker binds it and the enclosing function stores it once
// (LocalStores), through nested literals; v itself when it is not captured; nil when that is
// not known.
func Captured(v ssa.Value) ssa.Value {
	for range 8 {
		if load, ok := v.(*ssa.UnOp); ok && load.Op == token.MUL {
			var cell *ssa.Alloc
			switch x := load.X.(type) {
			case *ssa.FreeVar:
				if cell, ok = only(Bindings(x)).(*ssa.Alloc); !ok {
					return nil
				}
			case *ssa.Alloc: // the cell itself, read by the function that declares it
				cell = x
			default:
				return v
			}
			if v = only(LocalStores(cell)); v == nil {
				return nil
			}
			continue
		}
		fv, ok := v.(*ssa.FreeVar)
		if !ok {
			return v
		}
		if v = only(Bindings(fv)); v == nil {
			return nil
		}
	}
	return nil
}

// only returns the one value of vs, or nil.
func only(vs []ssa.Value) ssa.Value {
	if len(vs) != 1 {
		return nil
	}
	return vs[0]
}
