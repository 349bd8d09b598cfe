package ctxorigin

import (
	"go/token"
	"go/types"
	"sync"

	"golang.org/x/tools/go/ssa"

	"github.com/deadlinelint/deadlinelint/internal/typesutil"
	"github.com/deadlinelint/deadlinelint/internal/valueflow"
)

// Scopes tells the resolver which parameters carry a request. *scope.Set implements it.
type Scopes interface {
	IsRequestCtx(p *ssa.Parameter) bool     // the ctx parameter of a request scope
	IsRequestStream(p *ssa.Parameter) bool  // a server stream whose Context() is the request ctx
	IsServerReceiver(p *ssa.Parameter) bool // the receiver of a handler method
	IsScope(fn *ssa.Function) bool          // a request scope (a handler, or a literal in one)
}

// maxSteps bounds the work of one query; a query that needs more answers Unknown.
const maxSteps = 20000

// Resolver computes and memoises the origins of ctx values of one SSA package. It is safe for
// concurrent use by several rules.
type Resolver struct {
	mu        sync.Mutex
	scopes    Scopes
	memo      map[ssa.Value]Set
	active    map[ssa.Value]bool
	cyclic    bool // the current computation met a value still being computed
	steps     int
	summaries map[*ssa.Function][]Set
	summing   map[*ssa.Function]bool
	imported  func(*types.Func) *Returned
	// Implementations, if set, returns the methods an interface call may invoke that the
	// package can see (callees.Resolver's answer): the declared method and, when its body is in
	// the package, the body; an empty answer when one may be out of sight.
	Implementations func(*ssa.CallCommon) []Impl
	// Flow, if set, is the package's value flow: where a container's elements are stored.
	Flow *valueflow.Flow
	// ReadsParam, if set, reports whether fn, a function of another package, only reads
	// values from its parameter k (the receiver first), by its fact.
	ReadsParam func(fn *types.Func, k int) bool
	// WrapsParam, if set, reports whether fn, a function of another package, only adds values
	// to its ctx parameter k and returns it, by its fact.
	WrapsParam func(fn *types.Func, k int) bool
}

// Impl is one method an interface call may invoke.
type Impl struct {
	Obj  *types.Func
	Body *ssa.Function // nil when it is in another package
}

// New returns a Resolver for functions whose request parameters scopes knows. imported, if
// not nil, returns the Returned fact of a function of another package, or nil.
func New(scopes Scopes, imported func(*types.Func) *Returned) *Resolver {
	return &Resolver{
		scopes:    scopes,
		imported:  imported,
		memo:      make(map[ssa.Value]Set),
		active:    make(map[ssa.Value]bool),
		summaries: make(map[*ssa.Function][]Set),
		summing:   make(map[*ssa.Function]bool),
	}
}

// Of returns the origins of the ctx value v.
func (r *Resolver) Of(v ssa.Value) Set {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.steps = 0
	return r.of(v)
}

func (r *Resolver) of(v ssa.Value) Set {
	if s, ok := r.memo[v]; ok {
		return s
	}
	if r.active[v] {
		r.cyclic = true
		return nil // a cycle adds nothing beyond what its other edges bring
	}
	if r.steps++; r.steps > maxSteps {
		return unknown
	}
	r.active[v] = true
	outer := r.cyclic
	r.cyclic = false
	s := r.compute(v)
	delete(r.active, v)
	if !r.cyclic {
		r.memo[v] = s // values inside an unfinished cycle may be incomplete: recompute them
	}
	r.cyclic = r.cyclic || outer
	return s
}

func (r *Resolver) compute(v ssa.Value) Set {
	switch v := v.(type) {
	case *ssa.Parameter:
		if r.scopes.IsRequestCtx(v) {
			return Set{{Kind: Request, Pos: v.Pos()}}
		}
		return Set{{Kind: Param, Param: v, Pos: v.Pos()}}
	case *ssa.FreeVar:
		return r.viaBindings(v, r.of)
	case *ssa.Phi:
		sets := make([]Set, len(v.Edges))
		for i, e := range v.Edges {
			sets[i] = r.of(e)
		}
		return union(sets...)
	case *ssa.UnOp:
		if v.Op == token.MUL {
			return r.load(v.X, v, v.Pos())
		}
	case *ssa.Call:
		return r.callResult(v, 0)
	case *ssa.Lookup:
		return r.element(v.X, v.Pos())
	case *ssa.Index:
		return r.element(v.X, v.Pos())
	case *ssa.Extract:
		switch t := v.Tuple.(type) {
		case *ssa.Lookup:
			if v.Index == 0 {
				return r.element(t.X, t.Pos())
			}
		case *ssa.Call:
			return r.callResult(t, v.Index)
		case *ssa.TypeAssert:
			if v.Index == 0 {
				return r.of(t.X)
			}
		}
	case *ssa.ChangeInterface:
		return r.of(v.X)
	case *ssa.MakeInterface:
		return r.of(v.X)
	case *ssa.ChangeType:
		return r.of(v.X)
	case *ssa.TypeAssert:
		return r.of(v.X)
	case *ssa.Field:
		base, bp := r.baseOf(v.X)
		return Set{{Kind: Field, FieldVar: typesutil.FieldVar(v.X.Type(), v.Field), FieldBase: base, baseParam: bp, Pos: v.Pos()}}
	}
	return unknown
}

// viaBindings applies f to the values a free variable of a function literal is bound to by the
// MakeClosure instructions that create it, in the enclosing function.
func (r *Resolver) viaBindings(fv *ssa.FreeVar, f func(ssa.Value) Set) Set {
	fn := fv.Parent()
	idx := -1
	for i, x := range fn.FreeVars {
		if x == fv {
			idx = i
		}
	}
	refs := fn.Referrers()
	if idx < 0 || fn.Parent() == nil || refs == nil {
		return unknown // a method-value wrapper or a literal created out of sight
	}
	var sets []Set
	for _, ref := range *refs {
		if mc, ok := ref.(*ssa.MakeClosure); ok && mc.Fn == fn {
			sets = append(sets, f(mc.Bindings[idx]))
		}
	}
	if len(sets) == 0 {
		return unknown
	}
	return union(sets...)
}

// load returns the origins of the value loaded from addr by the instruction at.
func (r *Resolver) load(addr ssa.Value, at ssa.Instruction, pos token.Pos) Set {
	switch a := addr.(type) {
	case *ssa.Alloc:
		if s := r.storedAt(a, at, false); len(s) > 0 {
			return s
		}
		return unknown // never assigned here
	case *ssa.FreeVar: // a variable captured by reference
		if stores, fromEntry := reachingStores(a, at); len(stores) > 0 && !fromEntry {
			return r.storedValues(stores) // assigned in the literal itself before this load
		}
		return r.capturedLoad(a, pos)
	case *ssa.Global:
		return Set{{Kind: Global, Global: a, Pos: pos}}
	case *ssa.FieldAddr:
		return r.fieldLoad(a, pos)
	case *ssa.IndexAddr:
		return r.element(a.X, pos)
	}
	return unknown
}

// element returns the origins of a ctx read from an element of the map, slice or array
// container: when the container is a field of the server or of a package-level variable (a
// ctx per tenant, filled at start-up), a ctx that outlives requests — unless a request's ctx
// is stored into such a container somewhere in the package (calls in flight, kept to be
// cancelled). A package-level container is a package-level ctx. Anything else is unknown.
func (r *Resolver) element(container ssa.Value, pos token.Pos) Set {
	if g, ok := container.(*ssa.Global); ok { // an array variable, addressed directly
		return Set{{Kind: Global, Global: g, Pos: pos}}
	}
	if u, ok := container.(*ssa.UnOp); ok && u.Op == token.MUL {
		if g, ok := u.X.(*ssa.Global); ok {
			return Set{{Kind: Global, Global: g, Pos: pos}}
		}
	}
	field := valueflow.ContainerField(container)
	if field == nil || !r.filledOutsideRequests(field) {
		return unknown
	}
	base, bp := r.baseOf(container)
	if base == OtherBase {
		return unknown
	}
	for _, v := range r.Flow.ElementsOf(field).Values {
		if r.of(v).Has(Request) {
			return unknown
		}
	}
	return Set{{Kind: Field, FieldVar: field, FieldBase: base, baseParam: bp, Pos: pos}}
}

// filledOutsideRequests reports whether the elements of the containers field holds are stored
// only by functions that are not request scopes (a constructor, start-up): a handler storing
// into one keeps something of its request there.
func (r *Resolver) filledOutsideRequests(field *types.Var) bool {
	if r.Flow == nil {
		return false
	}
	for _, fn := range r.Flow.ElementsOf(field).Storers {
		if r.scopes.IsScope(fn) {
			return false
		}
	}
	return true
}

// capturedLoad returns the origins of a load, inside a function literal, of a variable of the
// enclosing function captured by reference: the values stored to it that reach the point
// where the literal is created, and those stored later (the literal may run later).
func (r *Resolver) capturedLoad(fv *ssa.FreeVar, pos token.Pos) Set {
	fn := fv.Parent()
	idx := -1
	for i, x := range fn.FreeVars {
		if x == fv {
			idx = i
		}
	}
	refs := fn.Referrers()
	if idx < 0 || fn.Parent() == nil || refs == nil {
		return unknown
	}
	var sets []Set
	for _, ref := range *refs {
		mc, ok := ref.(*ssa.MakeClosure)
		if !ok || mc.Fn != fn {
			continue
		}
		switch b := mc.Bindings[idx].(type) {
		case *ssa.Alloc:
			if calls := onlyCalled(mc); calls != nil {
				for _, call := range calls {
					sets = append(sets, r.storedAt(b, call, false))
				}
				continue
			}
			sets = append(sets, r.storedAt(b, mc, true))
		case *ssa.FreeVar:
			sets = append(sets, r.capturedLoad(b, pos))
		default:
			sets = append(sets, unknown)
		}
	}
	if s := union(sets...); len(s) > 0 {
		return s
	}
	return unknown
}

// onlyCalled returns the calls of the closure mc when calling it is all its function does with
// it (getState := func() { … }; getState()): never stored, passed on, deferred or started with
// go, the literal runs at those calls and nowhere else, so a variable it captures holds there
// what was stored before them, not what the function stores after its last call. Nil otherwise.
func onlyCalled(mc *ssa.MakeClosure) []*ssa.Call {
	calls, _ := usedOnlyAs[*ssa.Call](mc)
	return calls
}

// storedAt returns the origins of the values of the local variable alloc that instruction at
// can observe. When every assignment is a plain store in alloc's own function, that is the
// stores reaching at (and, if later is set, those after it); otherwise every value ever
// stored to it.
func (r *Resolver) storedAt(alloc *ssa.Alloc, at ssa.Instruction, later bool) Set {
	if at == nil || at.Parent() != alloc.Parent() || !OnlyLocalStores(alloc) {
		return r.stored(alloc)
	}
	stores, _ := reachingStores(alloc, at) // a path with no store sees the zero value: nil
	if later {
		stores = append(stores, storesAfter(alloc, at)...)
	}
	return r.storedValues(stores)
}

func (r *Resolver) storedValues(stores []*ssa.Store) Set {
	sets := make([]Set, len(stores))
	for i, st := range stores {
		sets[i] = r.of(st.Val)
	}
	return union(sets...)
}

// OnlyLocalStores reports whether the local variable alloc is assigned only by stores in its
// own function: no literal that captures it assigns it, and its address goes nowhere else.
// Loads, in the function or in the literals that capture it, are fine.
func OnlyLocalStores(alloc ssa.Value) bool { return valueflow.OnlyLocalStores(alloc) }

// reachingStores returns the stores to addr that reach instruction at: on each path
// backwards from at, the first store met. fromEntry reports whether some path reaches the
// function's entry with no store.
func reachingStores(addr ssa.Value, at ssa.Instruction) (out []*ssa.Store, fromEntry bool) {
	visited := make(map[*ssa.BasicBlock]bool)
	var scan func(b *ssa.BasicBlock, upto int)
	scan = func(b *ssa.BasicBlock, upto int) {
		for i := upto - 1; i >= 0; i-- {
			if st, ok := b.Instrs[i].(*ssa.Store); ok && st.Addr == addr {
				out = append(out, st)
				return
			}
		}
		if b.Index == 0 {
			fromEntry = true
		}
		for _, p := range b.Preds {
			if !visited[p] {
				visited[p] = true
				scan(p, len(p.Instrs))
			}
		}
	}
	scan(at.Block(), indexOf(at))
	return out, fromEntry
}

// storesAfter returns the stores to alloc reachable after instruction at.
func storesAfter(alloc *ssa.Alloc, at ssa.Instruction) []*ssa.Store {
	var out []*ssa.Store
	collect := func(instrs []ssa.Instruction) {
		for _, instr := range instrs {
			if st, ok := instr.(*ssa.Store); ok && st.Addr == alloc {
				out = append(out, st)
			}
		}
	}
	b := at.Block()
	collect(b.Instrs[indexOf(at)+1:])
	visited := make(map[*ssa.BasicBlock]bool)
	var walk func(b *ssa.BasicBlock)
	walk = func(b *ssa.BasicBlock) {
		for _, s := range b.Succs {
			if !visited[s] {
				visited[s] = true
				collect(s.Instrs)
				walk(s)
			}
		}
	}
	walk(b)
	return out
}

func indexOf(instr ssa.Instruction) int {
	for i, x := range instr.Block().Instrs {
		if x == instr {
			return i
		}
	}
	return len(instr.Block().Instrs)
}

// stored returns the origins of every value stored to the local variable addr, in its function
// and in the closures that capture it. An address that escapes adds Unknown.
func (r *Resolver) stored(addr ssa.Value) Set {
	refs := addr.Referrers()
	if refs == nil {
		return nil
	}
	var sets []Set
	for _, ref := range *refs {
		switch ref := ref.(type) {
		case *ssa.Store:
			if ref.Addr == addr {
				sets = append(sets, r.of(ref.Val))
			} else {
				sets = append(sets, unknown)
			}
		case *ssa.UnOp, *ssa.DebugRef:
		case *ssa.MakeClosure:
			for i, b := range ref.Bindings {
				if b == addr {
					sets = append(sets, r.stored(ref.Fn.(*ssa.Function).FreeVars[i]))
				}
			}
		default:
			sets = append(sets, unknown)
		}
	}
	return union(sets...)
}

// fieldLoad returns the origins of a ctx loaded from a struct field. For a struct built in
// this function, the values stored to that field are the answer; otherwise the field itself
// is the origin.
func (r *Resolver) fieldLoad(fa *ssa.FieldAddr, pos token.Pos) Set {
	if local := localStruct(fa.X); local != nil {
		if s := r.fieldStores(local, fa.Field); len(s) > 0 {
			return s
		}
		return unknown // never set here
	}
	base, bp := r.baseOf(fa.X)
	return Set{{Kind: Field, FieldVar: typesutil.FieldVar(fa.X.Type(), fa.Field), FieldBase: base, baseParam: bp, Pos: pos}}
}

// localStruct returns the local struct variable x addresses — an Alloc of this function, or
// one of the enclosing function captured by a literal — or nil.
func localStruct(x ssa.Value) *ssa.Alloc {
	switch x := x.(type) {
	case *ssa.Alloc:
		return x
	case *ssa.FreeVar:
		var found *ssa.Alloc
		ok := true
		fn := x.Parent()
		for i, fv := range fn.FreeVars {
			if fv != x || fn.Referrers() == nil {
				continue
			}
			for _, ref := range *fn.Referrers() {
				if mc, isMC := ref.(*ssa.MakeClosure); isMC {
					a := localStruct(mc.Bindings[i])
					ok = ok && a != nil && (found == nil || found == a)
					found = a
				}
			}
		}
		if ok {
			return found
		}
	}
	return nil
}

// fieldStores returns the origins of the values stored to field of the local struct addr (an
// Alloc, or the FreeVar through which a literal captures it): in its function, in the literals
// that capture it, and through whole-struct copies. Anything else done with the struct's
// address (a call may set the field) adds Unknown.
func (r *Resolver) fieldStores(addr ssa.Value, field int) Set {
	var sets []Set
	for _, ref := range *addr.Referrers() {
		switch ref := ref.(type) {
		case *ssa.FieldAddr:
			if ref.Field != field {
				continue
			}
			for _, use := range *ref.Referrers() {
				if st, ok := use.(*ssa.Store); ok && st.Addr == ref {
					sets = append(sets, r.of(st.Val))
				}
			}
		case *ssa.Store:
			// The whole struct is assigned: a composite literal built in a temporary and
			// copied in. Its field is what was stored in the temporary's.
			switch from := copiedFrom(ref, addr); {
			case from != nil:
				sets = append(sets, r.fieldStores(from, field))
			case ref.Addr == addr && valueflow.Container(ref.Val) != nil:
				// An element of a container copied in (t, ok := s.tenants[name]): the
				// field of a struct the container's holder keeps, when only code outside
				// request scopes fills it (baseOf).
				base, bp := r.baseOf(ref.Val)
				if base == OtherBase {
					sets = append(sets, unknown)
					continue
				}
				fv := typesutil.FieldVar(ref.Val.Type(), field)
				sets = append(sets, Set{{Kind: Field, FieldVar: fv, FieldBase: base, baseParam: bp, Pos: ref.Pos()}})
			case ref.Addr == addr && isParam(ref.Val):
				// A struct parameter copied in — go/ssa spills a value receiver so (p proc)
				// Context() { return p.ctx } reads its field from the copy: the parameter's
				// field, which a summary maps to the caller's argument.
				base, bp := r.baseOf(ref.Val)
				fv := typesutil.FieldVar(ref.Val.Type(), field)
				sets = append(sets, Set{{Kind: Field, FieldVar: fv, FieldBase: base, baseParam: bp, Pos: ref.Pos()}})
			default:
				sets = append(sets, unknown)
			}
		case *ssa.MakeClosure:
			for i, b := range ref.Bindings {
				if b == addr {
					sets = append(sets, r.fieldStores(ref.Fn.(*ssa.Function).FreeVars[i], field))
				}
			}
		case *ssa.DebugRef, *ssa.UnOp:
		default:
			sets = append(sets, unknown) // the struct escapes: others may set the field
		}
	}
	return union(sets...)
}

func isParam(v ssa.Value) bool {
	_, ok := v.(*ssa.Parameter)
	return ok
}

// copiedFrom returns the local struct that st copies whole into alloc (*alloc = *from), or nil.
func copiedFrom(st *ssa.Store, alloc ssa.Value) *ssa.Alloc {
	if st.Addr != alloc {
		return nil
	}
	load, ok := st.Val.(*ssa.UnOp)
	if !ok || load.Op != token.MUL {
		return nil
	}
	from, _ := load.X.(*ssa.Alloc)
	return from
}

// baseOf says what holds the struct x (a pointer or value) ultimately belongs to. For the
// parameter of a function that is not a request scope it also returns that parameter, so that
// a caller can substitute its argument.
func (r *Resolver) baseOf(x ssa.Value) (Base, *ssa.Parameter) {
	b, p, _ := r.baseVia(x, nil)
	return b, p
}

// baseVia is baseOf through the local variables in progress (seen). A value read back from one
// of them (a self-assignment such as go/ssa's store of a named result returned by name,
// *w = *w, or n = n.next) adds nothing to what the variable's other stores say: it returns
// cycle = true, and the caller leaves it out.
func (r *Resolver) baseVia(x ssa.Value, seen map[*ssa.Alloc]bool) (base Base, param *ssa.Parameter, cycle bool) {
	for {
		switch v := x.(type) {
		case *ssa.UnOp:
			if v.Op != token.MUL {
				return OtherBase, nil, false
			}
			x = v.X
		case *ssa.FieldAddr:
			x = v.X
		case *ssa.Field:
			x = v.X
		case *ssa.Parameter:
			if r.scopes.IsServerReceiver(v) {
				return ServerBase, nil, false
			}
			return OtherBase, v, false
		case *ssa.Global:
			return GlobalBase, nil, false
		case *ssa.Lookup, *ssa.Index, *ssa.IndexAddr, *ssa.Extract:
			// An element of a container (t, ok := s.tenants[name]; t.ctx): the container's
			// base, when only code outside request scopes fills it.
			c := valueflow.Container(v)
			field := valueflow.ContainerField(c)
			if field == nil || !r.filledOutsideRequests(field) {
				return OtherBase, nil, false
			}
			x = c
		case *ssa.FreeVar:
			return r.freeVarBase(v, seen)
		case *ssa.Alloc:
			if seen[v] {
				return OtherBase, nil, true
			}
			return r.allocBase(v, seen)
		default:
			return OtherBase, nil, false
		}
	}
}

// allocBase is baseOf for a local variable holding the struct (or pointer), such as a
// receiver spilled because a closure or defer captures it: the base all stores agree on.
func (r *Resolver) allocBase(alloc *ssa.Alloc, seen map[*ssa.Alloc]bool) (Base, *ssa.Parameter, bool) {
	if seen == nil {
		seen = make(map[*ssa.Alloc]bool)
	}
	seen[alloc] = true // in progress on this path only
	defer delete(seen, alloc)
	var bases []Base
	var param *ssa.Parameter
	cycles := 0
	for _, ref := range *alloc.Referrers() {
		switch ref := ref.(type) {
		case *ssa.Store:
			if ref.Addr != alloc {
				return OtherBase, nil, false
			}
			b, p, cycle := r.baseVia(ref.Val, seen)
			if cycle {
				cycles++
				continue
			}
			bases, param = append(bases, b), p
		case *ssa.UnOp, *ssa.DebugRef, *ssa.MakeClosure, *ssa.FieldAddr:
		default:
			return OtherBase, nil, false
		}
	}
	if len(bases) == 0 && cycles > 0 {
		return OtherBase, nil, true // only ever assigned from itself here
	}
	if len(bases) != 1 {
		return OtherBase, nil, false // none, or reassigned: cannot tell which
	}
	return bases[0], param, false
}

// freeVarBase is baseOf for a captured variable: the base all its bindings agree on.
func (r *Resolver) freeVarBase(fv *ssa.FreeVar, seen map[*ssa.Alloc]bool) (Base, *ssa.Parameter, bool) {
	base, first := OtherBase, true
	r.viaBindings(fv, func(b ssa.Value) Set {
		bb, _, cycle := r.baseVia(b, seen)
		switch {
		case cycle:
		case first || bb == base:
			base, first = bb, false
		default:
			base = OtherBase
		}
		return nil
	})
	return base, nil, false
}

// CtxArg returns the first argument of common whose type is context.Context, or nil.
func CtxArg(common *ssa.CallCommon) ssa.Value {
	for _, a := range common.Args {
		if typesutil.IsContext(a.Type()) {
			return a
		}
	}
	return nil
}
