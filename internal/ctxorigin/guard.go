package ctxorigin

import (
	"fmt"
	"go/constant"
	"go/token"
	"go/types"
	"slices"

	"golang.org/x/tools/go/ssa"

	"github.com/deadlinelint/deadlinelint/internal/scope"
	"github.com/deadlinelint/deadlinelint/internal/typesutil"
	"github.com/deadlinelint/deadlinelint/internal/valueflow"
)

// NilGuarded reports whether call runs only when some ctx, or a holder of one, is nil: the
// fallback in `if ctx == nil { ctx = context.Background() }`, which replaces no caller's ctx.
func NilGuarded(call *ssa.Call) bool { return NilGuard(call) != nil }

// NilGuard returns the ctx whose nil check call runs under — ctx in `if ctx == nil { ctx =
// context.Background() }`, the loaded field in `if f.ctx != nil { return f.ctx }; return
// context.Background()` — or the holder of a ctx (holdsCtx) in `if p.host == nil { return
// context.Background() }; return p.host.Request()`; nil when call runs under none.
func NilGuard(call *ssa.Call) ssa.Value {
	b := call.Block()
	for d := b.Idom(); d != nil; d = d.Idom() {
		cond, ok := d.Instrs[len(d.Instrs)-1].(*ssa.If)
		if !ok {
			continue
		}
		op, ok := cond.Cond.(*ssa.BinOp)
		if !ok || !comparesCtxWithNil(op) {
			continue
		}
		nilSide := d.Succs[0] // the "then" block of ctx == nil
		if op.Op == token.NEQ {
			nilSide = d.Succs[1]
		}
		if nilSide.Dominates(b) {
			if c, isConst := op.X.(*ssa.Const); isConst && c.IsNil() {
				return op.Y
			}
			return op.X
		}
	}
	return nil
}

// comparesCtxWithNil reports whether op is `x == nil` or `x != nil` for a ctx x or a holder
// of one.
func comparesCtxWithNil(op *ssa.BinOp) bool {
	if op.Op != token.EQL && op.Op != token.NEQ {
		return false
	}
	isNil := func(v ssa.Value) bool {
		c, ok := v.(*ssa.Const)
		return ok && c.IsNil()
	}
	return isNil(op.Y) && holdsCtx(op.X.Type()) || isNil(op.X) && holdsCtx(op.Y.Type())
}

// holdsCtx reports whether a value of type t is a ctx or holds one for its users: a pointer
// to a struct with a context.Context field, or a pointer or interface with a method that takes
// nothing and returns a context.Context (a plugin host's Request(), a request wrapper's
// Context()). While the holder is nil there is no ctx to keep, and a root made only then
// replaces none: the holder, where it is given, decides. A holder of something else (a cache,
// a client) says nothing about the ctx.
func holdsCtx(t types.Type) bool {
	if typesutil.IsContext(t) {
		return true
	}
	switch t.Underlying().(type) {
	case *types.Pointer, *types.Interface:
	default:
		return false
	}
	ms := types.NewMethodSet(t)
	for i := 0; i < ms.Len(); i++ {
		sig, ok := ms.At(i).Type().(*types.Signature)
		if ok && sig.Params().Len() == 0 && sig.Results().Len() == 1 && typesutil.IsContext(sig.Results().At(0).Type()) {
			return true
		}
	}
	for i := 0; ; i++ {
		f := typesutil.FieldVar(t, i)
		if f == nil {
			return false
		}
		if typesutil.IsContext(f.Type()) {
			return true
		}
	}
}

// ReplacesNoCtx reports whether the root context created by call stands in for no caller's
// ctx: the fallback of a nil check (NilGuarded), a one-time initialisation run by sync.Once
// (InOnce), whose shared result must not depend on the request that happens to trigger it, or
// the lifetime of an object that keeps its cancel function (KeptByObject).
func ReplacesNoCtx(call *ssa.Call) bool {
	return NilGuarded(call) || InOnce(call) || KeptByObject(call)
}

// KeptByObject reports whether the root context call makes is the lifetime of an object: the
// cancel function of a ctx derived from it is stored in a struct field (s.cancel = cancel, or a
// field of a composite literal), for the object's Close or Stop to call. Its work runs as long
// as the object lives — a subscription, a background refresher — not for the request that
// happened to create it.
func KeptByObject(call *ssa.Call) bool { return cancelKept(call, 0) }

// OwnedByObject reports whether the ctx v is used only to make the lifetime of objects: every
// use of it is a derivation whose cancel function is stored in a struct field (KeptByObject),
// as in a method that only starts a subscription (s.ctx, s.cancel = context.WithCancel(ctx)),
// or — v spilled to a variable a literal captures — in the goroutines the function starts
// (ownedCell: a job runner deriving a bounded child, keeping its cancel by the job's id and
// running the job on it on a goroutine).
func OwnedByObject(v ssa.Value) bool {
	refs := v.Referrers()
	if refs == nil || len(*refs) == 0 {
		return false
	}
	for _, ref := range *refs {
		if derive, ok := ref.(*ssa.Call); ok && isDerivation(derive, v) && derivationKept(derive, 0) {
			continue
		}
		if st, ok := ref.(*ssa.Store); ok && st.Val == v {
			if cell, ok := st.Addr.(*ssa.Alloc); ok && ownedCell(cell) {
				continue
			}
		}
		return false
	}
	return true
}

// ownedCell reports whether the variable cell, which go/ssa keeps a ctx in because a literal
// captures it (ctx, cancel := context.WithTimeout(ctx, d); go func() { defer cancel(); fn(ctx) }()),
// is read for a derivation whose cancel is kept, and otherwise only for such derivations and by
// literals run on goroutines the function starts, whatever is stored in it: the children it is
// given are the objects' own lifetimes, which the goroutines run on. A ctx only read by
// goroutines (a watch registered until it ends) makes no object's lifetime.
func ownedCell(cell *ssa.Alloc) bool {
	kept := false
	for _, ref := range *cell.Referrers() {
		switch ref := ref.(type) {
		case *ssa.Store, *ssa.DebugRef:
		case *ssa.UnOp:
			if ref.Op != token.MUL || !OwnedByObject(ref) {
				return false
			}
			kept = true
		case *ssa.MakeClosure:
			if !Started(ref.Fn.(*ssa.Function)) {
				return false
			}
		default:
			return false
		}
	}
	return kept
}

// cancelKept reports whether a derivation of the ctx v has its cancel function stored in a
// struct field.
func cancelKept(v ssa.Value, depth int) bool {
	refs := v.Referrers()
	if refs == nil || depth > 4 {
		return false
	}
	for _, ref := range *refs {
		if derive, ok := ref.(*ssa.Call); ok && isDerivation(derive, v) && derivationKept(derive, depth) {
			return true
		}
	}
	return false
}

// isDerivation reports whether call derives a ctx from the ctx v it is given (rather than
// calling v's methods).
func isDerivation(call *ssa.Call, v ssa.Value) bool {
	return typesutil.ReturnsContext(call.Common().Signature()) && call.Common().Value != v
}

// derivationKept reports whether the derivation call has its cancel function stored in a struct
// field, or derives in turn a ctx that has.
func derivationKept(derive *ssa.Call, depth int) bool {
	if _, tuple := derive.Type().(*types.Tuple); !tuple {
		return cancelKept(derive, depth+1)
	}
	for _, r := range *derive.Referrers() {
		ext, ok := r.(*ssa.Extract)
		if !ok {
			continue
		}
		if typesutil.IsContext(ext.Type()) && cancelKept(ext, depth+1) || storedInField(ext) {
			return true
		}
	}
	return false
}

// storedInField reports whether the function value v (a cancel function) is stored in a struct
// field, as it is, converted to another func type (a context.CancelFunc kept in a func()), from
// the variable a literal captures it in, or called by a function literal stored there (CancelFn:
// func(err error) { cancel(err) }). A field of a local struct that nothing takes out of the
// function keeps nothing (g := guard{cancel: cancel}; defer g.cancel()).
func storedInField(v ssa.Value) bool { return storedIn(v, make(map[ssa.Value]bool)) }

// storedIn is storedInField through the values in seen, already followed: cells can hand their
// values to each other (cur, next = next, cur).
func storedIn(v ssa.Value, seen map[ssa.Value]bool) bool {
	if _, fn := v.Type().Underlying().(*types.Signature); !fn || seen[v] {
		return false
	}
	seen[v] = true
	for _, ref := range *v.Referrers() {
		switch ref := ref.(type) {
		case *ssa.Store:
			if ref.Val != v {
				continue
			}
			switch addr := ref.Addr.(type) {
			case *ssa.FieldAddr:
				if keptField(addr, seen) {
					return true
				}
			case *ssa.Alloc: // a variable: go/ssa keeps one a literal captures in a cell
				if capturedByStored(addr, seen) || onlyStore(addr, v) && loadStored(addr, seen) {
					return true
				}
			}
		case *ssa.MapUpdate: // kept by the work's key in a map the object holds: s.workers[id] = cancel
			if ref.Value == v && fieldMap(ref.Map) {
				return true
			}
		case *ssa.ChangeType, *ssa.Phi: // converted, or one of the cancels a phi keeps
			if storedIn(ref.(ssa.Value), seen) {
				return true
			}
		case *ssa.MakeInterface: // boxed for a sync.Map the object holds: s.cancels.Store(id, cancel)
			if keptInSyncMap(ref) {
				return true
			}
		case *ssa.Call:
			if keptByCallee(ref.Common(), v, seen) {
				return true
			}
		}
	}
	return false
}

// syncMapValue gives, for each method of sync.Map that keeps a value, the index of the value
// among a call's arguments (the receiver first).
var syncMapValue = map[string]int{"Store": 2, "LoadOrStore": 2, "Swap": 2, "CompareAndSwap": 3}

// keptInSyncMap reports whether the boxed value mi is kept by a sync.Map that is not a local of
// the function: the value of its Store, LoadOrStore, Swap or CompareAndSwap, on a map held in a
// field or returned by a call (metadata.Map(ctx).Store(key{}, cancel): the connection's).
func keptInSyncMap(mi *ssa.MakeInterface) bool {
	for _, ref := range *mi.Referrers() {
		call, ok := ref.(*ssa.Call)
		if !ok {
			continue
		}
		fn := Callee(call.Common())
		args := call.Common().Args
		if fn == nil || !typesutil.IsMethod(fn, "sync", "Map", fn.Name()) {
			continue
		}
		i, keeps := syncMapValue[fn.Name()]
		if !keeps || len(args) <= i || args[i] != mi {
			continue
		}
		if _, local := args[0].(*ssa.Alloc); !local {
			return true
		}
	}
	return false
}

// keptByCallee reports whether the static callee of common, a function of the same package
// with its body in sight, keeps the function value v it is given (store(ctx, cancel) putting
// it in the connection's sync.Map): storedIn of its parameter.
func keptByCallee(common *ssa.CallCommon, v ssa.Value, seen map[ssa.Value]bool) bool {
	fn := common.StaticCallee()
	if fn == nil || fn.Blocks == nil || fn.Pkg == nil || v.Parent() == nil || fn.Pkg != v.Parent().Pkg || len(fn.Params) != len(common.Args) {
		return false
	}
	for k, a := range common.Args {
		if a == v && storedIn(fn.Params[k], seen) {
			return true
		}
	}
	return false
}

// keptField reports whether a value stored through the field address addr outlives the function:
// the field of a struct that is not a local one, or of a local one the function hands out (a
// return, a store, a map, a call: &task{cancel: cancel} kept in m.tasks), or whose field of a
// function type it copies where something keeps it (s.stop = g.cancel).
func keptField(addr *ssa.FieldAddr, seen map[ssa.Value]bool) bool {
	local, ok := addr.X.(*ssa.Alloc)
	return !ok || handedOut(local, seen)
}

// handedOut reports whether the address of the local struct a, or its whole value, leaves the
// function's own reads and writes of its fields, or a function it holds is copied out of a
// field to where something keeps it.
func handedOut(a *ssa.Alloc, seen map[ssa.Value]bool) bool {
	for _, ref := range *a.Referrers() {
		switch ref := ref.(type) {
		case *ssa.DebugRef:
		case *ssa.FieldAddr:
			for _, use := range *ref.Referrers() {
				if load, ok := use.(*ssa.UnOp); ok && load.Op == token.MUL && storedIn(load, seen) {
					return true
				}
			}
		case *ssa.Store:
			if ref.Val == a {
				return true
			}
		case *ssa.UnOp: // the whole struct copied out
			if ref.Op != token.MUL || ref.Referrers() != nil && len(*ref.Referrers()) > 0 {
				return true
			}
		default:
			return true
		}
	}
	return false
}

// onlyStore reports whether v is the one value its function stores in the variable cell (a
// variable reused for another cancel keeps that one too: which one a later load sees is not
// known).
func onlyStore(cell *ssa.Alloc, v ssa.Value) bool {
	stores := valueflow.LocalStores(cell)
	return len(stores) == 1 && stores[0] == v
}

// loadStored reports whether the value of the variable cell — a cancel function go/ssa keeps
// in a cell because a literal captures it (defer cancel() in the worker's literal) — is loaded
// and stored where an object keeps it by the function that declares it (s.workers[id] =
// cancel).
func loadStored(cell *ssa.Alloc, seen map[ssa.Value]bool) bool {
	for _, ref := range *cell.Referrers() {
		if load, ok := ref.(*ssa.UnOp); ok && load.Op == token.MUL && storedIn(load, seen) {
			return true
		}
	}
	return false
}

// fieldMap reports whether the map m is loaded from a struct field.
func fieldMap(m ssa.Value) bool {
	load, ok := m.(*ssa.UnOp)
	if !ok || load.Op != token.MUL {
		return false
	}
	_, field := load.X.(*ssa.FieldAddr)
	return field
}

// DerivedKept reports whether the ctx v — or the value a literal's captured variable v holds
// (valueflow.Captured: a worker's literal handed to a pool) — is the child a derivation returns
// whose cancel function an object keeps (in a field, a map it holds, or a function literal
// kept there): the lifetime of the work the object will stop, not the request's.
func DerivedKept(v ssa.Value) bool {
	return derivedKept(valueflow.Captured(v), make(map[ssa.Value]bool))
}

// derivedKept is DerivedKept of a value already followed out of a literal's captures; a phi
// (a child replaced by another on one path, its cancel with it: the phi of the cancels is
// what is kept) is one when each of its edges is.
func derivedKept(v ssa.Value, seen map[ssa.Value]bool) bool {
	if phi, ok := v.(*ssa.Phi); ok {
		if seen[phi] {
			return true
		}
		seen[phi] = true
		for _, e := range phi.Edges {
			if !derivedKept(e, seen) {
				return false
			}
		}
		return len(phi.Edges) > 0
	}
	ext, ok := v.(*ssa.Extract)
	if !ok || ext.Index != 0 {
		return false
	}
	derive, ok := ext.Tuple.(*ssa.Call)
	return ok && typesutil.ReturnsContext(derive.Common().Signature()) && derivationKept(derive, 0)
}

// capturedByStored reports whether the variable cell is captured by a function literal that
// is stored in a struct field.
func capturedByStored(cell *ssa.Alloc, seen map[ssa.Value]bool) bool {
	for _, ref := range *cell.Referrers() {
		if mc, ok := ref.(*ssa.MakeClosure); ok && storedIn(mc, seen) {
			return true
		}
	}
	return false
}

// InOnce reports whether call is made inside a function literal that sync.Once's Do,
// sync.OnceFunc, OnceValue or OnceValues runs (directly, or in a literal nested in it): the
// one-time initialisation of state shared by every later request, which must not be cut
// short by the one request that happens to trigger it.
func InOnce(call *ssa.Call) bool { return InOnceFunc(call.Parent()) }

// InOnceFunc reports whether fn is, or is nested in, a function literal that sync.Once's Do or
// one of the sync.Once* wrappers runs.
func InOnceFunc(fn *ssa.Function) bool { return nestedIn(fn, runByOnce) }

// InSharedOnce reports whether fn is, or is nested in, a function literal that the Do method
// of a sync.Once not local to the function calling it runs (a field's or a package variable's:
// l.once.Do): once for every caller, not once per call as a local Once is, nor as a
// sync.OnceFunc made anew on each call.
func InSharedOnce(fn *ssa.Function) bool { return nestedIn(fn, runBySharedOnce) }

// nestedIn reports whether the function literal fn, or one it is nested in, satisfies lit.
func nestedIn(fn *ssa.Function, lit func(*ssa.Function) bool) bool {
	for ; fn != nil && fn.Parent() != nil; fn = fn.Parent() {
		if lit(fn) {
			return true
		}
	}
	return false
}

// runByOnce reports whether the function literal fn is passed to sync.Once.Do or one of the
// sync.Once* wrappers.
func runByOnce(fn *ssa.Function) bool {
	return passedTo(fn, func(obj types.Object) bool { f, _ := obj.(*types.Func); return isOnceRunner(f) })
}

// runBySharedOnce reports whether the function literal fn is passed to the Do of a sync.Once
// that is not a local of the calling function.
func runBySharedOnce(fn *ssa.Function) bool {
	return usedBy(fn, func(v ssa.Value, ref ssa.Instruction) bool {
		call, ok := ref.(*ssa.Call)
		if !ok || !typesutil.IsMethod(Callee(call.Common()), "sync", "Once", "Do") {
			return false
		}
		args := call.Common().Args
		if len(args) != 2 || args[1] != v {
			return false
		}
		_, local := args[0].(*ssa.Alloc)
		return !local
	})
}

// isOnceRunner reports whether fn runs its function argument at most once.
func isOnceRunner(fn *types.Func) bool {
	return typesutil.IsMethod(fn, "sync", "Once", "Do") ||
		typesutil.IsFunc(fn, "sync", "OnceFunc") ||
		typesutil.IsFunc(fn, "sync", "OnceValue") ||
		typesutil.IsFunc(fn, "sync", "OnceValues")
}

// AfterDone reports whether instr runs only once some ctx is done: in a function literal
// handed to context.AfterFunc, on a path that has received from a ctx's Done channel (after
// `<-ctx.Done()`, or in the `case <-ctx.Done():` of a select), or on the branch where a ctx's
// Err() is not nil (`if ctx.Err() != nil`, `ctx.Err() == context.Canceled`,
// `errors.Is(ctx.Err(), context.DeadlineExceeded)`). Work that starts because the caller gave
// up — killing its query, rolling back, recording what a cancelled request did — cannot lose
// the caller's deadline.
func AfterDone(instr ssa.Instruction) bool {
	for fn := instr.Parent(); fn != nil && fn.Parent() != nil; fn = fn.Parent() {
		if passedTo(fn, IsAfterFunc) {
			return true
		}
	}
	b := instr.Block()
	if b == nil {
		return false
	}
	for d := b; d != nil; d = d.Idom() {
		for _, x := range d.Instrs {
			if d == b && x == instr {
				break
			}
			if recv, ok := x.(*ssa.UnOp); ok && recv.Op == token.ARROW && isDoneChan(recv.X) {
				return true
			}
		}
		if sel, succ := doneCaseOf(d); sel && succ.Dominates(b) {
			return true
		}
		if succ := errSetSide(d); succ != nil && succ.Dominates(b) {
			return true
		}
	}
	return false
}

// errSetSide returns, when block d ends by branching on whether a ctx's Err() is set — compared
// with nil, with context.Canceled or context.DeadlineExceeded, or asked errors.Is of one of them
// — the successor taken when it is; nil otherwise.
func errSetSide(d *ssa.BasicBlock) *ssa.BasicBlock {
	if len(d.Instrs) == 0 {
		return nil
	}
	cond, ok := d.Instrs[len(d.Instrs)-1].(*ssa.If)
	if !ok {
		return nil
	}
	if err, set := errCheck(cond.Cond); err != nil { // ctx.Err() != nil, ctx.Err() == nil
		if isCtxErr(err) {
			return d.Succs[set]
		}
		return nil
	}
	switch c := cond.Cond.(type) {
	case *ssa.BinOp: // ctx.Err() == context.Canceled, != context.DeadlineExceeded
		x, y := c.X, c.Y
		if !isCtxErr(x) {
			x, y = y, x
		}
		if !isCtxErr(x) || !isCtxSentinel(y) {
			return nil
		}
		switch c.Op {
		case token.EQL:
			return d.Succs[0]
		case token.NEQ:
			return d.Succs[1]
		}
	case *ssa.Call:
		fn := c.Call.StaticCallee()
		if fn != nil && typesutil.IsFunc(fn.Object(), "errors", "Is") && len(c.Call.Args) == 2 &&
			isCtxErr(c.Call.Args[0]) && isCtxSentinel(c.Call.Args[1]) {
			return d.Succs[0]
		}
	}
	return nil
}

// isCtxErr reports whether v is the result of a ctx's Err().
func isCtxErr(v ssa.Value) bool {
	call, ok := v.(*ssa.Call)
	return ok && AsksErr(call.Common()) != nil
}

// isCtxSentinel reports whether v is context.Canceled or context.DeadlineExceeded, loaded.
func isCtxSentinel(v ssa.Value) bool {
	g := LoadedGlobal(v)
	return g != nil && typesutil.IsContextPath(g.Pkg.Pkg.Path()) && (g.Name() == "Canceled" || g.Name() == "DeadlineExceeded")
}

// LoadedGlobal returns the package-level variable whose value v is, loaded (and converted to
// an interface, as an error sentinel handed to errors.Is is), or nil.
func LoadedGlobal(v ssa.Value) *ssa.Global {
	if mi, ok := v.(*ssa.MakeInterface); ok {
		v = mi.X
	}
	load, ok := v.(*ssa.UnOp)
	if !ok || load.Op != token.MUL {
		return nil
	}
	if g, ok := load.X.(*ssa.Global); ok && g.Pkg != nil {
		return g
	}
	return nil
}

// OnFailure reports whether instr runs only once the function has failed: its block is entered
// through the err != nil branch of a check of an error, and every way on from it returns that
// same error (return nil, err), wrapped or translated, or an error of its own that cannot be
// nil (return nil, status.Error(codes.Internal, "failed")), or panics. It is cleanup after a
// failure — releasing what was acquired, rolling back — whose result the caller never sees:
// the request has failed, and the cleanup must run whether or not its ctx is still live, which
// is why it takes a fresh one.
func OnFailure(instr ssa.Instruction) bool { return onFailure(instr, false) }

// AfterFailure is OnFailure for a function with no results too — a goroutine a stream handler
// starts, which a failed Recv ends — where every way on from the err != nil branch returns
// or panics. What runs there runs because the work failed, and the one result left to give is
// the end of the goroutine.
func AfterFailure(instr ssa.Instruction) bool { return onFailure(instr, true) }

func onFailure(instr ssa.Instruction, void bool) bool {
	instr = loopOf(instr)
	b := instr.Block()
	if b == nil {
		return false
	}
	res := b.Parent().Signature.Results()
	noResults := void && res.Len() == 0
	if !noResults && (res.Len() == 0 || !typesutil.IsError(res.At(res.Len()-1).Type())) {
		return false
	}
	for d := b.Idom(); d != nil; d = d.Idom() {
		cond, ok := d.Instrs[len(d.Instrs)-1].(*ssa.If)
		if !ok {
			continue
		}
		err, failed := errCheck(cond.Cond)
		if err == nil || !OnlyVia(d, failed, b) {
			continue
		}
		if noResults {
			err = nil // every return ends the function's work; there is no error to give
		}
		if returnsOnly(b, err) {
			return true
		}
	}
	return false
}

// loopOf returns, for an instruction in the body of a range-over-func loop (a synthetic yield
// function), the call of the iterator that runs the loop, in the function the loop is written
// in; otherwise instr.
func loopOf(instr ssa.Instruction) ssa.Instruction {
	for fn := instr.Parent(); fn != nil && fn.Synthetic == "range-over-func yield"; fn = instr.Parent() {
		at := madeAt(fn)
		if mc, ok := at.(*ssa.MakeClosure); ok && mc.Referrers() != nil && len(*mc.Referrers()) == 1 {
			at = (*mc.Referrers())[0]
		}
		if _, ok := at.(ssa.CallInstruction); !ok {
			return instr
		}
		instr = at
	}
	return instr
}

// errCheck returns, for a condition err != nil or err == nil on a value of type error, the
// error and the index of the If's successor taken when it is not nil.
func errCheck(v ssa.Value) (ssa.Value, int) {
	op, ok := v.(*ssa.BinOp)
	if !ok || op.Op != token.NEQ && op.Op != token.EQL {
		return nil, 0
	}
	x, y := op.X, op.Y
	if c, ok := x.(*ssa.Const); ok && c.IsNil() {
		x, y = y, x
	}
	if c, ok := y.(*ssa.Const); !ok || !c.IsNil() || !typesutil.IsError(x.Type()) {
		return nil, 0
	}
	if op.Op == token.NEQ {
		return x, 0
	}
	return x, 1
}

// returnsOnly reports whether every path from block b ends in a return whose last result is
// err, or wraps it (fmt.Errorf("…: %w", err)), or — reached without going back round a loop b is
// in — is an error made there (madeError: a status of its own, ctx.Err()), or in a panic; with
// err nil, in any return reached without going back round a loop b is in. A way that never
// ends (a loop with no way out) is not a return; nor is a loop's next turn the failure's way out,
// whatever error the function returns once the loop is over.
func returnsOnly(b *ssa.BasicBlock, err ssa.Value) bool {
	direct := notRound(b)
	seen := map[*ssa.BasicBlock]bool{b: true}
	queue := []*ssa.BasicBlock{b}
	ends := make(map[*ssa.BasicBlock]bool) // the blocks from which the function ends
	for len(queue) > 0 {
		x := queue[0]
		queue = queue[1:]
		switch last := x.Instrs[len(x.Instrs)-1].(type) {
		case *ssa.Return:
			if err != nil {
				if len(last.Results) == 0 {
					return false
				}
				v := stored(last.Results[len(last.Results)-1])
				if !wraps(v, err) && !(direct[x] && madeError(v)) {
					return false
				}
			}
			ends[x] = true
		case *ssa.Panic:
			ends[x] = true
		default:
			for _, s := range x.Succs {
				if err == nil && s.Dominates(b) {
					return false // back round a loop b is in: the function goes on
				}
				if !seen[s] {
					seen[s] = true
					queue = append(queue, s)
				}
			}
		}
	}
	// Every way on must end: a loop with no way out (for { … } polling forever) never returns.
	for grew := true; grew; {
		grew = false
		for x := range seen {
			if ends[x] {
				continue
			}
			if slices.ContainsFunc(x.Succs, func(s *ssa.BasicBlock) bool { return ends[s] }) {
				ends[x], grew = true, true
			}
		}
	}
	return len(ends) == len(seen)
}

// notRound returns the blocks reachable from b without going back round a loop b is in: no
// edge into a block that dominates b is taken.
func notRound(b *ssa.BasicBlock) map[*ssa.BasicBlock]bool {
	out := map[*ssa.BasicBlock]bool{b: true}
	queue := []*ssa.BasicBlock{b}
	for len(queue) > 0 {
		x := queue[0]
		queue = queue[1:]
		for _, s := range x.Succs {
			if !out[s] && !s.Dominates(b) {
				out[s] = true
				queue = append(queue, s)
			}
		}
	}
	return out
}

// stored returns, for a result a function with defers returns through its result slot (*t4 =
// err; rundefers; t5 = *t4; return t5), the value stored into the slot last in the same block;
// otherwise v.
func stored(v ssa.Value) ssa.Value {
	load, ok := v.(*ssa.UnOp)
	if !ok || load.Op != token.MUL {
		return v
	}
	slot, ok := load.X.(*ssa.Alloc)
	if !ok {
		return v
	}
	var last ssa.Value
	for _, instr := range load.Block().Instrs {
		if instr == load {
			break
		}
		if st, ok := instr.(*ssa.Store); ok && st.Addr == slot {
			last = st.Val
		}
	}
	if last == nil {
		return v
	}
	return last
}

// failing reports whether v, an error returned on the way out of the failure err, is an error:
// err or one made of it (wraps), or one made for the failure without it (madeError).
func failing(v, err ssa.Value) bool { return wraps(v, err) || madeError(v) }

// madeError reports whether v is an error that cannot be nil: one made by an error constructor
// of the standard library, gRPC, connect-go or github.com/pkg/errors (errors.New, status.Error
// with a message of its own), a ctx's Err() — nil only while the ctx is live, and asked for on
// the failure's way out because it is not —, or a package-level sentinel (ErrNotFound, errClosed).
func madeError(v ssa.Value) bool {
	switch x := v.(type) {
	case *ssa.MakeInterface:
		v = x.X
	case *ssa.ChangeInterface:
		v = x.X
	}
	switch x := v.(type) {
	case *ssa.Call:
		fn := Callee(x.Common())
		return matches(fn, errorMakers) || typesutil.IsFunc(fn, "errors", "New") || AsksErr(x.Common()) != nil
	case *ssa.UnOp:
		_, ok := x.X.(*ssa.Global)
		return ok && x.Op == token.MUL && typesutil.IsError(x.Type())
	}
	return false
}

// wraps reports whether v is err, or made of it: the result of a call given err as an argument,
// directly or among its variadic arguments (fmt.Errorf("…: %w", err), errors.Join(err, cerr)),
// converted to an interface on the way; deeper, through the error constructors of the standard
// library, gRPC, connect-go and github.com/pkg/errors (errorMakers) given err, its text
// (err.Error()) or such a value, and through the error-typed fields of a struct made here (up to
// three deep: connect.NewError(code, fmt.Errorf("…: %w", err)), status.Error(codes.Internal,
// err.Error()), &codedError{code: c, err: err}). A function of the module given err may return
// anything, nil included; only the outermost call is taken on trust.
func wraps(v, err ssa.Value) bool { return wrapsAt(v, err, 0) }

func wrapsAt(v, err ssa.Value, depth int) bool {
	switch x := v.(type) {
	case *ssa.MakeInterface:
		v = x.X
	case *ssa.ChangeInterface:
		v = x.X
	}
	if v == err {
		return true
	}
	if depth == 3 {
		return false
	}
	if a, ok := v.(*ssa.Alloc); ok {
		return slices.ContainsFunc(errorFieldsStored(a), func(x ssa.Value) bool { return wrapsAt(x, err, depth+1) })
	}
	call, ok := v.(*ssa.Call)
	if !ok || depth > 0 && !matches(Callee(call.Common()), errorMakers) {
		return false
	}
	for _, a := range call.Call.Args {
		if a == err || variadicHolds(a, err) || isText(a, err) || wrapsAt(a, err, depth+1) {
			return true
		}
	}
	return false
}

// errorMakers are the functions that make an error of the error, or of the text, they are
// given.
var errorMakers = []reader{
	{"fmt", "", "Errorf"},
	{"errors", "", "Join"},
	{"github.com/pkg/errors", "", "Wrap"},
	{"github.com/pkg/errors", "", "Wrapf"},
	{"github.com/pkg/errors", "", "WithMessage"},
	{"github.com/pkg/errors", "", "WithMessagef"},
	{"github.com/pkg/errors", "", "WithStack"},
	{"google.golang.org/grpc/status", "", "Error"},
	{"google.golang.org/grpc/status", "", "Errorf"},
	{"google.golang.org/grpc/status", "", "New"},
	{"google.golang.org/grpc/status", "", "Newf"},
	{"google.golang.org/grpc/status", "Status", "Err"},
	{"connectrpc.com/connect", "", "NewError"},
	{"connectrpc.com/connect", "", "NewWireError"},
}

// TextOf returns err when common is err.Error(), the text of an error (a call of an interface's
// or a concrete type's Error method); or nil.
func TextOf(common *ssa.CallCommon) ssa.Value {
	fn := Callee(common)
	sig := common.Signature()
	if fn == nil || fn.Name() != "Error" || sig.Params().Len() != 0 || sig.Results().Len() != 1 {
		return nil
	}
	if b, ok := sig.Results().At(0).Type().Underlying().(*types.Basic); !ok || b.Kind() != types.String {
		return nil
	}
	if common.IsInvoke() {
		return common.Value
	}
	if len(common.Args) == 1 {
		return common.Args[0]
	}
	return nil
}

// isText reports whether v is err.Error().
func isText(v, err ssa.Value) bool {
	call, ok := v.(*ssa.Call)
	return ok && TextOf(call.Common()) == err
}

// errorFieldsStored returns the values stored into the error-typed fields of a, a struct
// allocated here (a composite literal &T{…}).
func errorFieldsStored(a *ssa.Alloc) []ssa.Value {
	var out []ssa.Value
	for _, ref := range *a.Referrers() {
		fa, ok := ref.(*ssa.FieldAddr)
		if !ok || fa.Referrers() == nil || !typesutil.IsError(fa.Type().(*types.Pointer).Elem()) {
			continue
		}
		for _, use := range *fa.Referrers() {
			if st, ok := use.(*ssa.Store); ok && st.Addr == fa {
				out = append(out, st.Val)
			}
		}
	}
	return out
}

// variadicHolds reports whether the slice a call's variadic arguments are passed in holds err,
// as it is or converted to any.
func variadicHolds(slice, err ssa.Value) bool {
	elems, _ := valueflow.LocalElements(slice)
	for _, v := range elems {
		if c, ok := v.(*ssa.ChangeInterface); ok { // error to any
			v = c.X
		}
		if m, ok := v.(*ssa.MakeInterface); ok {
			v = m.X
		}
		if v == err {
			return true
		}
	}
	return false
}

// doneCaseOf returns, when block d ends by branching on a select's chosen case being a
// receive from a ctx's Done channel, the successor that case takes.
func doneCaseOf(d *ssa.BasicBlock) (bool, *ssa.BasicBlock) {
	sel, k, succ := SelectCase(d)
	if sel == nil {
		return false, nil
	}
	st := sel.States[k]
	return st.Dir == types.RecvOnly && isDoneChan(st.Chan), succ
}

// SelectCase returns, when block d ends by branching on which case of a select was chosen
// (go/ssa's `if index == k`), the select, the case k, and the successor that case takes; a nil
// select otherwise.
func SelectCase(d *ssa.BasicBlock) (*ssa.Select, int, *ssa.BasicBlock) {
	if len(d.Instrs) == 0 {
		return nil, 0, nil
	}
	cond, ok := d.Instrs[len(d.Instrs)-1].(*ssa.If)
	if !ok {
		return nil, 0, nil
	}
	op, ok := cond.Cond.(*ssa.BinOp)
	if !ok || op.Op != token.EQL {
		return nil, 0, nil
	}
	idx, ok := op.X.(*ssa.Extract)
	k, isConst := op.Y.(*ssa.Const)
	if !ok || !isConst || idx.Index != 0 {
		return nil, 0, nil
	}
	sel, ok := idx.Tuple.(*ssa.Select)
	if !ok || k.Int64() < 0 || int(k.Int64()) >= len(sel.States) {
		return nil, 0, nil
	}
	return sel, int(k.Int64()), d.Succs[0]
}

// isDoneChan reports whether ch is the result of Done() called on a context.Context.
func isDoneChan(ch ssa.Value) bool {
	call, ok := ch.(*ssa.Call)
	if !ok {
		return false
	}
	common := call.Common()
	if common.IsInvoke() {
		return common.Method.Name() == "Done" && typesutil.IsContext(common.Value.Type())
	}
	fn := Callee(common)
	return fn != nil && fn.Name() == "Done" && len(common.Args) == 1 && typesutil.IsContext(common.Args[0].Type())
}

// IsAfterFunc reports whether obj is context.AfterFunc, which only watches its ctx.
func IsAfterFunc(obj types.Object) bool { return typesutil.IsFunc(obj, "context", "AfterFunc") }

// passedTo reports whether the function literal fn is an argument of a call whose callee
// satisfies is.
func passedTo(fn *ssa.Function, is func(types.Object) bool) bool {
	return usedBy(fn, func(v ssa.Value, ref ssa.Instruction) bool {
		call, ok := ref.(*ssa.Call)
		return ok && is(Callee(call.Common())) && slices.Contains(call.Common().Args, v)
	})
}

// usedBy reports whether some instruction using the function literal fn — itself, or the
// closure a MakeClosure makes of it — satisfies use.
func usedBy(fn *ssa.Function, use func(v ssa.Value, ref ssa.Instruction) bool) bool {
	vals := []ssa.Value{fn}
	if refs := fn.Referrers(); refs != nil {
		for _, ref := range *refs {
			if mc, ok := ref.(*ssa.MakeClosure); ok {
				vals = append(vals, mc)
			}
		}
	}
	for _, v := range vals {
		if refs := v.Referrers(); refs != nil {
			for _, ref := range *refs {
				if use(v, ref) {
					return true
				}
			}
		}
	}
	return false
}

// InDeferred reports whether fn is, or is nested in, a function literal its creator defers:
// cleanup that runs as the function returns, when the caller's ctx may be done and a bounded
// fresh one is the idiom (ctx, cancel := context.WithTimeout(context.Background(), d) for a
// deferred delete).
func InDeferred(fn *ssa.Function) bool {
	for ; fn != nil && fn.Parent() != nil; fn = fn.Parent() {
		if Deferred(fn) {
			return true
		}
	}
	return false
}

// Started reports whether the function literal fn is run by a go statement (scope.StartedByGo,
// which request scopes are found with).
func Started(fn *ssa.Function) bool { return scope.StartedByGo(fn) }

// Deferred reports whether the function literal fn is called by a defer statement.
func Deferred(fn *ssa.Function) bool {
	return usedBy(fn, func(v ssa.Value, ref ssa.Instruction) bool {
		d, ok := ref.(*ssa.Defer)
		return ok && d.Call.Value == v
	})
}

// FirstUse reports whether instr runs only on the first use of shared state: it is dominated
// by a branch on a struct field or a package-level variable (if p.isOpen { return }, if
// c.conn == nil { … }, if c.id.Load() == nil { … } on a sync/atomic field, if !schemaReady
// { … }) that the same function then sets — an idempotent Open, a connection or value built
// once and kept — or it runs only when a key is absent from a map held in one (if db, ok :=
// t.dbs[id]; ok { return db }) that the same function then fills while holding a lock until it
// returns (defer mu.Unlock()): a per-key resource created once, its creation serialised, shared
// by every later request. What it builds serves every later request and must not be cut short
// by the one that triggered it. A read-through cache is not that: it fetches outside its lock
// (unlocked, so concurrent requests fetch side by side) or again once an entry expires (ok &&
// time.Since(e.at) < ttl), and the fetch is the request's own work.
func FirstUse(instr ssa.Instruction) bool { return firstUse(instr, false, false) }

// FirstUseOfServer is FirstUse for a call in a request scope, stricter: the call must be in a
// branch of the test, not merely after it (code after if s.v == "" { … } runs every time), and
// the field guarded must be the server's own (reached from the handler's receiver, or from a
// package-level variable), state every later request shares; a field of the request's own
// objects (a record the handler loaded and then updates) is no first use of anything. In a
// helper, FirstUse keeps the looser test (dominated by the guard, after it too): on the real
// modules measured (scripts/realcode.sh), every finding the stricter test brought back there
// was read as no lost deadline.
func FirstUseOfServer(instr ssa.Instruction) bool { return firstUse(instr, true, true) }

// FirstUseOnly is FirstUse with the test of FirstUseOfServer on where instr is — in a branch of
// the test, or past the return the test makes — but on any field: what a function does with its
// ctx only on the first use of its own state. Code after if s.pending == nil { s.pending =
// newTask() } runs on every call: a field made on first use does not make what follows it
// first-use work.
func FirstUseOnly(instr ssa.Instruction) bool { return firstUse(instr, true, false) }

func firstUse(instr ssa.Instruction, inBranch, server bool) bool {
	fn, b := instr.Parent(), instr.Block()
	if fn == nil || b == nil {
		return false
	}
	if made := madeAt(fn); made != nil && firstUse(made, inBranch, server) {
		return true // in a literal made only on the first use: the periodic refresh an Open starts
	}
	for d := b.Idom(); d != nil; d = d.Idom() {
		cond, ok := d.Instrs[len(d.Instrs)-1].(*ssa.If)
		if !ok {
			continue
		}
		if inBranch {
			if g, ok := guardOf(cond.Cond); ok && (!server || ServerState(g.v, fn)) &&
				(OnlyVia(d, 0, b) && setsAway(fn, g, d, 0) || OnlyVia(d, 1, b) && setsAway(fn, g, d, 1)) {
				return true
			}
		} else if v := guardVar(cond.Cond); v != nil && len(varStores(fn, v, false)) > 0 && (!server || ServerState(v, fn)) {
			return true
		}
		if m, absent := guardMap(cond.Cond); m != nil && OnlyVia(d, absent, b) && updatesMap(fn, m) && holdsLock(fn) {
			return true
		}
		if cas, won := swapped(cond.Cond); cas != nil && OnlyVia(d, won, b) && !swapsBack(fn, cas) &&
			(!server || ServerState(cas.Call.Args[0], fn)) {
			return true
		}
	}
	return false
}

// swapped returns, for a test of a sync/atomic field's CompareAndSwap (if
// s.started.CompareAndSwap(false, true) { … }, or its negation past a return), the call and the
// successor taken when the swap was made: that side runs once, for the caller that made it —
// unless the function puts the old value back (swapsBack).
func swapped(v ssa.Value) (*ssa.Call, int) {
	if u, ok := v.(*ssa.UnOp); ok && u.Op == token.NOT {
		cas, won := swapped(u.X)
		return cas, 1 - won
	}
	call, ok := v.(*ssa.Call)
	if !ok || atomicVar(call.Common(), "CompareAndSwap") == nil || len(call.Call.Args) != 3 {
		return nil, 0
	}
	return call, 0
}

// swapsBack reports whether fn stores into the field of cas, a CompareAndSwap(old, new), anything
// but new: a try-lock (defer s.busy.Store(false)) lets the next caller through again.
func swapsBack(fn *ssa.Function, cas *ssa.Call) bool {
	for _, st := range varStores(fn, cas.Call.Args[0], true) {
		if st.at == ssa.Instruction(cas) {
			continue
		}
		if c, ok := cas.Call.Args[2].(*ssa.Const); !ok || c.Value == nil {
			return true
		} else if known, same := constIs(st.val, c.Value); !known || !same {
			return true
		}
	}
	return false
}

// madeAt returns the instruction that creates the function literal fn when there is exactly
// one (a MakeClosure, or a call or go that names it directly), or nil.
func madeAt(fn *ssa.Function) ssa.Instruction {
	if fn.Parent() == nil || fn.Referrers() == nil {
		return nil
	}
	var at ssa.Instruction
	for _, ref := range *fn.Referrers() {
		if at != nil {
			return nil
		}
		at = ref
	}
	return at
}

// guardVar returns the address of the shared variable (sharedVar) whose loaded value the
// condition tests: the variable itself (a bool), its negation, or its comparison with a
// constant such as nil; it may be read with the Load method of a sync/atomic type.
func guardVar(v ssa.Value) ssa.Value {
	switch v := v.(type) {
	case *ssa.UnOp:
		if v.Op == token.NOT {
			return guardVar(v.X)
		}
	case *ssa.BinOp:
		if v.Op != token.EQL && v.Op != token.NEQ {
			return nil
		}
		if _, ok := v.Y.(*ssa.Const); ok {
			return guardVar(v.X)
		}
		if _, ok := v.X.(*ssa.Const); ok {
			return guardVar(v.Y)
		}
		return nil
	}
	return readVar(v)
}

// varGuard is an If's test of a shared variable (sharedVar) against a constant: the variable's
// address, the constant (false for a bool tested as it is; nil for the nil of a pointer or
// interface), and the If's successor taken when the variable holds it.
type varGuard struct {
	v     ssa.Value
	k     constant.Value
	holds int
}

// guardOf returns the test of a shared variable v is: if s.v == "" (the field holds "" on
// successor 0), if s.conn != nil (nil on successor 1), if s.isOpen, if c.ready.Load() or if
// schemaReady (false on successor 1), and their negations.
func guardOf(v ssa.Value) (varGuard, bool) {
	switch x := v.(type) {
	case *ssa.UnOp:
		if x.Op == token.NOT {
			g, ok := guardOf(x.X)
			g.holds = 1 - g.holds
			return g, ok
		}
	case *ssa.BinOp:
		if x.Op != token.EQL && x.Op != token.NEQ {
			return varGuard{}, false
		}
		read, k := x.X, x.Y
		if _, ok := read.(*ssa.Const); ok {
			read, k = k, read
		}
		c, ok := k.(*ssa.Const)
		addr := readVar(read)
		if !ok || addr == nil {
			return varGuard{}, false
		}
		g := varGuard{v: addr, k: c.Value}
		if x.Op == token.NEQ {
			g.holds = 1
		}
		return g, true
	}
	if addr := readVar(v); addr != nil && typesutil.IsBool(v.Type()) {
		return varGuard{v: addr, k: constant.MakeBool(false), holds: 1}, true
	}
	return varGuard{}, false
}

// readVar returns the address of the shared variable (sharedVar) v reads — *s.f, *ready, or
// the Load of a sync/atomic one — or nil.
func readVar(v ssa.Value) ssa.Value {
	if call, ok := v.(*ssa.Call); ok {
		return atomicVar(call.Common(), "Load")
	}
	return loadedVar(v)
}

// setsAway reports whether fn, on the side of the test d ends with that the first use runs on
// (its successor side, and only through it), stores into g's variable what turns the test away
// from that side the next time: from the side where the field holds the constant, anything else
// (s.v = probe() after if s.v == ""; s.isOpen = true after if s.isOpen { return }); from the
// other side, the constant itself (s.state = ready after if s.state != ready). if s.state ==
// canceled { return } followed by s.state = running is a check that runs on every call, no
// first use; nor is one whose field is set only elsewhere (s.state = failed on an error path
// after the branch rejoins).
func setsAway(fn *ssa.Function, g varGuard, d *ssa.BasicBlock, side int) bool {
	for _, st := range varStores(fn, g.v, false) {
		known, same := constIs(st.val, g.k)
		turns := side == g.holds && !(known && same) || side != g.holds && known && same
		if turns && OnlyVia(d, side, st.at.Block()) {
			return true
		}
	}
	return false
}

// constIs reports whether v is a constant, and whether it is k (nil: the nil constant).
func constIs(v ssa.Value, k constant.Value) (known, same bool) {
	c, ok := v.(*ssa.Const)
	if !ok {
		return false, false
	}
	switch {
	case k == nil || c.Value == nil:
		return true, k == nil && c.Value == nil
	case k.Kind() != c.Value.Kind():
		return true, false
	}
	return true, constant.Compare(c.Value, token.EQL, k)
}

// varStore is a store into a shared variable: the value, and the instruction storing it.
type varStore struct {
	val ssa.Value
	at  ssa.Instruction
}

// varStores returns the stores fn makes to the shared variable addr addresses (the same field
// of the same base value, or the same package-level variable): an assignment, or a Store, Swap
// or CompareAndSwap of a sync/atomic one — deferred or started by a go statement too, when
// deferred is set.
func varStores(fn *ssa.Function, addr ssa.Value, deferred bool) []varStore {
	var out []varStore
	for _, b := range fn.Blocks {
		for _, instr := range b.Instrs {
			var to, val ssa.Value
			switch instr := instr.(type) {
			case *ssa.Store:
				to, val = sharedVar(instr.Addr), instr.Val
			case ssa.CallInstruction:
				if _, call := instr.(*ssa.Call); !call && !deferred {
					break
				}
				for m, arg := range map[string]int{"Store": 1, "Swap": 1, "CompareAndSwap": 2} {
					if v := atomicVar(instr.Common(), m); v != nil && arg < len(instr.Common().Args) {
						to, val = v, instr.Common().Args[arg]
					}
				}
			}
			if to != nil && sameBase(to, addr) {
				out = append(out, varStore{val, instr})
			}
		}
	}
	return out
}

// atomicVar returns the shared variable (sharedVar) a call of method name of a sync/atomic type
// is made on (c.id.Load(): the address of c.id; ready.Load(): of ready), or nil.
func atomicVar(common *ssa.CallCommon, name string) ssa.Value {
	callee := common.StaticCallee()
	if callee == nil || len(common.Args) == 0 {
		return nil
	}
	if o := callee.Origin(); o != nil {
		callee = o
	}
	obj, ok := callee.Object().(*types.Func)
	if !ok || obj.Name() != name || obj.Pkg() == nil || obj.Pkg().Path() != "sync/atomic" || obj.Signature().Recv() == nil {
		return nil
	}
	return sharedVar(common.Args[0])
}

// guardMap returns the shared variable (sharedVar) holding the map whose lookup the condition
// tests for a key's presence — the ok of v, ok := m[k], or its negation — and the index of the
// If's successor taken when the key is absent.
func guardMap(v ssa.Value) (ssa.Value, int) {
	if u, ok := v.(*ssa.UnOp); ok && u.Op == token.NOT {
		m, absent := guardMap(u.X)
		return m, 1 - absent
	}
	ex, ok := v.(*ssa.Extract)
	if !ok || ex.Index != 1 {
		return nil, 0
	}
	lookup, ok := ex.Tuple.(*ssa.Lookup)
	if !ok || !lookup.CommaOk {
		return nil, 0
	}
	return loadedVar(lookup.X), 1
}

// ComparedWithConst returns the operand that the If ending block b compares with a constant
// (if wait > 0, if 0 < wait), or nil.
func ComparedWithConst(b *ssa.BasicBlock) ssa.Value {
	if len(b.Instrs) == 0 {
		return nil
	}
	cond, ok := b.Instrs[len(b.Instrs)-1].(*ssa.If)
	if !ok {
		return nil
	}
	op, ok := cond.Cond.(*ssa.BinOp)
	if !ok {
		return nil
	}
	if _, ok := op.Y.(*ssa.Const); ok {
		return op.X
	}
	if _, ok := op.X.(*ssa.Const); ok {
		return op.Y
	}
	return nil
}

// OnlyVia reports whether block b runs only after the If ending block d took its successor
// succ: that successor is entered from d alone and dominates b.
func OnlyVia(d *ssa.BasicBlock, succ int, b *ssa.BasicBlock) bool {
	if succ >= len(d.Succs) {
		return false
	}
	s := d.Succs[succ]
	return len(s.Preds) == 1 && s.Dominates(b)
}

// holdsLock reports whether fn, once it locks, keeps the lock until it returns: it defers the
// Unlock of a sync.Mutex or RWMutex and calls no Unlock itself.
func holdsLock(fn *ssa.Function) bool {
	deferred := false
	for _, b := range fn.Blocks {
		for _, instr := range b.Instrs {
			call, ok := instr.(ssa.CallInstruction)
			if !ok || !isUnlock(call.Common()) {
				continue
			}
			if _, ok := instr.(*ssa.Defer); !ok {
				return false
			}
			deferred = true
		}
	}
	return deferred
}

// isUnlock reports whether common calls Unlock of a sync.Mutex or sync.RWMutex.
func isUnlock(common *ssa.CallCommon) bool {
	callee := common.StaticCallee()
	if callee == nil {
		return false
	}
	obj, ok := callee.Object().(*types.Func)
	return ok && (typesutil.IsMethod(obj, "sync", "Mutex", "Unlock") || typesutil.IsMethod(obj, "sync", "RWMutex", "Unlock"))
}

// updatesMap reports whether fn assigns an element of the map held in the shared variable addr
// addresses.
func updatesMap(fn *ssa.Function, addr ssa.Value) bool {
	for _, b := range fn.Blocks {
		for _, instr := range b.Instrs {
			if up, ok := instr.(*ssa.MapUpdate); ok {
				if m := loadedVar(up.Map); m != nil && sameBase(m, addr) {
					return true
				}
			}
		}
	}
	return false
}

// loadedVar returns the address of the shared variable (sharedVar) v is a load of, or nil.
func loadedVar(v ssa.Value) ssa.Value {
	if u, ok := v.(*ssa.UnOp); ok && u.Op == token.MUL {
		return sharedVar(u.X)
	}
	return nil
}

// sharedVar returns addr when it is the address of a variable that outlives the call, state a
// first use can set for the calls after it: a struct field (s.ready) or a package-level variable
// (schemaReady); otherwise nil.
func sharedVar(addr ssa.Value) ssa.Value {
	switch addr.(type) {
	case *ssa.FieldAddr, *ssa.Global:
		return addr
	}
	return nil
}

// ServerState reports whether v, in fn, is the server's own state: reached through fields
// from fn's receiver (also as a cell a literal of fn captures it by) or from a package-level
// variable (s.store, registry.byName), state every request shares, not an object the request
// made or loaded.
func ServerState(v ssa.Value, fn *ssa.Function) bool {
	for range 32 { // a path of fields, loads and cells; bounded against a cell holding its own load
		switch x := v.(type) {
		case *ssa.FieldAddr:
			v = x.X
		case *ssa.UnOp:
			if x.Op != token.MUL {
				return false
			}
			v = x.X
		case *ssa.Global:
			return true
		case *ssa.Parameter:
			return fn.Signature.Recv() != nil && len(fn.Params) > 0 && x == fn.Params[0]
		case *ssa.Alloc:
			// The receiver spilled to a cell, as a literal of the function captures it.
			stores := valueflow.LocalStores(x)
			if len(stores) != 1 || x.Parent() != fn {
				return false
			}
			v = stores[0]
		default:
			return false
		}
	}
	return false
}

// sameBase reports whether x and y are the same struct pointer or variable: the same value,
// loads of the same local variable (a receiver spilled because a closure captures it), or the
// address of the same field of the same base (i.state.dbs: the base of dbs is &i.state, taken
// twice).
func sameBase(x, y ssa.Value) bool {
	if x == y {
		return true
	}
	if fx, ok := x.(*ssa.FieldAddr); ok {
		fy, ok := y.(*ssa.FieldAddr)
		return ok && fx.Field == fy.Field && sameBase(fx.X, fy.X)
	}
	lx, ok1 := x.(*ssa.UnOp)
	ly, ok2 := y.(*ssa.UnOp)
	return ok1 && ok2 && lx.Op == token.MUL && ly.Op == token.MUL && lx.X == ly.X
}

// A ParamValue is a value a parameter of a function must have: Param indexes its SSA
// parameters, the receiver of a method first. For a bool parameter Const is empty and Value is
// the value; for one compared with a constant (if purpose != intervalUpdate { return }), Const
// is the constant (its exact spelling, constant.Value.ExactString) and Value says whether the
// parameter must equal it (true) or differ from it (false).
type ParamValue struct {
	Param int
	Value bool
	Const string
}

// ParamValuesAt returns the values of fn's parameters under which instr, in fn's own body (not
// a literal's), runs: for each branch on a bool parameter (if p { … }, if !p { return }), or on
// a comparison of a parameter with a constant (if kind != full { return }), whose one successor
// alone leads to it.
func ParamValuesAt(fn *ssa.Function, instr ssa.Instruction) []ParamValue {
	b := instr.Block()
	if b == nil || instr.Parent() != fn {
		return nil
	}
	var out []ParamValue
	for d := b.Idom(); d != nil; d = d.Idom() {
		cond, ok := d.Instrs[len(d.Instrs)-1].(*ssa.If)
		if !ok {
			continue
		}
		k, negated := boolParam(fn, cond.Cond)
		c := ""
		if k < 0 {
			k, c, negated = comparedParam(fn, cond.Cond)
		}
		if k < 0 {
			continue
		}
		for succ := range 2 {
			if OnlyVia(d, succ, b) {
				out = append(out, ParamValue{Param: k, Value: (succ == 0) != negated, Const: c})
			}
		}
	}
	return out
}

// comparedParam returns, for a condition comparing a parameter of fn with an integer or string
// constant (p == c, c != p), the parameter's index, the constant's exact spelling, and whether
// the condition is true when they differ (!=); -1 when it is no such comparison.
func comparedParam(fn *ssa.Function, v ssa.Value) (k int, c string, negated bool) {
	op, ok := v.(*ssa.BinOp)
	if !ok || op.Op != token.EQL && op.Op != token.NEQ {
		return -1, "", false
	}
	x, y := op.X, op.Y
	if _, ok := x.(*ssa.Const); ok {
		x, y = y, x
	}
	p, ok := x.(*ssa.Parameter)
	cv, isConst := y.(*ssa.Const)
	if !ok || !isConst || !spelledConst(cv) {
		return -1, "", false
	}
	if k = slices.Index(fn.Params, p); k < 0 {
		return -1, "", false
	}
	return k, cv.Value.ExactString(), op.Op == token.NEQ
}

// spelledConst reports whether c is an integer or string constant: one an argument can be told
// equal to or different from by its spelling.
func spelledConst(c *ssa.Const) bool {
	return c.Value != nil && (c.Value.Kind() == constant.Int || c.Value.Kind() == constant.String)
}

// String spells the need for facts and tests: "#2 = true", "#1 = 3", "#1 ≠ \"full\"".
func (need ParamValue) String() string {
	switch {
	case need.Const == "":
		return fmt.Sprintf("#%d = %t", need.Param, need.Value)
	case need.Value:
		return fmt.Sprintf("#%d = %s", need.Param, need.Const)
	}
	return fmt.Sprintf("#%d ≠ %s", need.Param, need.Const)
}

// Contradicted reports whether a constant among args, a call's arguments indexed as the
// callee's SSA parameters (receiver first), gives one of the needed parameters another value
// than the one needed: the call never reaches what needs them.
func Contradicted(needs []ParamValue, args []ssa.Value) bool {
	for _, n := range needs {
		if n.Param < len(args) && n.Contradicts(args[n.Param]) {
			return true
		}
	}
	return false
}

// Contradicts reports whether the constant argument arg gives the parameter need is about
// another value than the one it needs.
func (need ParamValue) Contradicts(arg ssa.Value) bool {
	c, ok := arg.(*ssa.Const)
	if !ok || c.Value == nil {
		return false
	}
	if need.Const == "" {
		return c.Value.Kind() == constant.Bool && constant.BoolVal(c.Value) != need.Value
	}
	if !spelledConst(c) {
		return false
	}
	return (c.Value.ExactString() == need.Const) != need.Value
}

// boolParam returns the index of the bool parameter of fn the condition is, or its negation;
// -1 when it is neither.
func boolParam(fn *ssa.Function, v ssa.Value) (k int, negated bool) {
	if u, ok := v.(*ssa.UnOp); ok && u.Op == token.NOT {
		k, negated = boolParam(fn, u.X)
		return k, !negated
	}
	p, ok := v.(*ssa.Parameter)
	if !ok {
		return -1, false
	}
	return slices.Index(fn.Params, p), false
}

// TiedTo returns, for a call of context.WithCancel or WithCancelCause whose cancel function is
// registered with context.AfterFunc(x, cancel) — directly, or in a function literal that calls
// it — or called by a goroutine once x is done (closureTies), the ctx x, or nil. The child is
// cancelled as soon as x is done: a root made cancellable that way
// (context.WithCancel(context.Background()) with context.AfterFunc(ctx, cancel), to keep the
// request's cancellation without its deadline value) stops when the request does.
func TiedTo(call *ssa.Call) ssa.Value {
	if cancel := cancelOf(call); cancel != nil {
		return tiedBy(cancel, 0)
	}
	return nil
}

// cancelOf returns the cancel function of call, a call of context.WithCancel or
// WithCancelCause, when it is used; nil otherwise.
func cancelOf(call *ssa.Call) ssa.Value {
	callee := Callee(call.Common())
	if !typesutil.IsFunc(callee, "context", "WithCancel") && !typesutil.IsFunc(callee, "context", "WithCancelCause") {
		return nil
	}
	return result(call, 1)
}

// result returns result i of call, a call with several results, when it is used; nil
// otherwise.
func result(call *ssa.Call, i int) ssa.Value {
	for _, ref := range *call.Referrers() {
		if ext, ok := ref.(*ssa.Extract); ok && ext.Index == i {
			return ext
		}
	}
	return nil
}

// TimedOut reports whether call, a call of context.WithCancel or WithCancelCause, has its
// cancel function run by a timer: handed to time.AfterFunc(d, cancel), directly or in a function
// literal that calls it. The child then has a deadline in all but name — a watchdog the work
// resets as it makes progress (t.Reset(d) after each chunk sent) bounds each step as
// WithTimeout bounds the whole.
//
// So does a child handed only to goroutines by a function that defers its cancel and, on every
// way to its return, waits on a timer (select { case <-ticker.C: … case <-done: … }, outside
// any loop): the function returns, and cancels the work, by the time the timer fires at the
// latest — a watchdog written by hand.
func TimedOut(call *ssa.Call) bool {
	cancel := cancelOf(call)
	return cancel != nil && (runByTimer(cancel, 0) || waitedOut(call, cancel))
}

// waitedOut reports whether the child ctx of call, whose cancel function is cancel, is used
// only by goroutines the function starts, the function defers cancel, and every way to its
// return waits on a timer's channel, not in a loop.
func waitedOut(call *ssa.Call, cancel ssa.Value) bool {
	fn := call.Parent()
	if fn == nil || len(fn.Blocks) == 0 || !deferred(cancel) || !onlyInGoroutines(result(call, 0)) {
		return false
	}
	for _, b := range fn.Blocks {
		for i, instr := range b.Instrs {
			if waitsOnTimer(instr) && !OnCycle(b, nil) && (b == fn.Blocks[0] || allReach(fn.Blocks[0], b)) &&
				!waitsAfter(b, i) {
				return true
			}
		}
	}
	return false
}

// waitsAfter reports whether anything after instruction i of block b, on the way to the
// function's return, may wait again — a receive, a select, a send, a WaitGroup's, Cond's or
// errgroup's Wait (for the work itself, <-done after the timer fired): the timer then does not
// bound the return. b is on no cycle, so the blocks after it are those Reaches finds.
func waitsAfter(b *ssa.BasicBlock, i int) bool {
	if slices.ContainsFunc(b.Instrs[i+1:], blocks) {
		return true
	}
	for _, x := range b.Parent().Blocks {
		if x != b && Reaches(b, x) && slices.ContainsFunc(x.Instrs, blocks) {
			return true
		}
	}
	return false
}

// blocks reports whether instr may wait for another goroutine: a receive, a blocking select, a
// send, or a call of Wait on a sync.WaitGroup, sync.Cond or errgroup.Group.
func blocks(instr ssa.Instruction) bool {
	switch instr := instr.(type) {
	case *ssa.UnOp:
		return instr.Op == token.ARROW
	case *ssa.Select:
		return instr.Blocking
	case *ssa.Send:
		return true
	case *ssa.Call:
		fn := Callee(instr.Common())
		return typesutil.IsMethod(fn, "sync", "WaitGroup", "Wait") || typesutil.IsMethod(fn, "sync", "Cond", "Wait") ||
			typesutil.IsMethod(fn, "golang.org/x/sync/errgroup", "Group", "Wait")
	}
	return false
}

// deferred reports whether the function cancel is the callee of a defer statement of the
// function that makes it.
func deferred(cancel ssa.Value) bool {
	for _, ref := range *cancel.Referrers() {
		if d, ok := ref.(*ssa.Defer); ok && d.Call.Value == cancel {
			return true
		}
	}
	return false
}

// onlyInGoroutines reports whether ctx is used, and used only as an argument of go statements
// or by function literals that only go statements start (directly, or through the variable a
// literal captures it in).
func onlyInGoroutines(ctx ssa.Value) bool {
	if ctx == nil {
		return false
	}
	started := false
	for _, ref := range *ctx.Referrers() {
		switch ref := ref.(type) {
		case *ssa.DebugRef:
		case *ssa.Go:
			if ref.Call.Value == ctx {
				return false
			}
			started = true
		case *ssa.MakeClosure:
			if !startedOnly(ref) {
				return false
			}
			started = true
		case *ssa.Store:
			cell, ok := ref.Addr.(*ssa.Alloc)
			if !ok || ref.Val != ctx {
				return false
			}
			for _, use := range *cell.Referrers() {
				switch use := use.(type) {
				case *ssa.DebugRef, *ssa.Store:
				case *ssa.MakeClosure:
					if !startedOnly(use) {
						return false
					}
					started = true
				default:
					return false
				}
			}
		default:
			return false
		}
	}
	return started
}

// startedOnly reports whether the literal mc is only started by go statements.
func startedOnly(mc *ssa.MakeClosure) bool {
	_, ok := usedOnlyAs[*ssa.Go](mc)
	return ok
}

// usedOnlyAs returns the uses of the closure mc, and true, when each is a call instruction of
// type T (a call, a go statement) that calls it, not one handing it on as an argument.
func usedOnlyAs[T ssa.CallInstruction](mc *ssa.MakeClosure) ([]T, bool) {
	var out []T
	for _, use := range *mc.Referrers() {
		c, ok := use.(T)
		if !ok || c.Common().Value != mc || slices.Contains(c.Common().Args, ssa.Value(mc)) {
			return nil, false
		}
		out = append(out, c)
	}
	return out, true
}

// waitsOnTimer reports whether instr is a blocking receive from a timer's channel, alone or as
// a case of a select: time.After(d), time.Tick(d), or the C of a *time.Timer or *time.Ticker.
func waitsOnTimer(instr ssa.Instruction) bool {
	switch instr := instr.(type) {
	case *ssa.UnOp:
		return instr.Op == token.ARROW && isTimerChan(instr.X)
	case *ssa.Select:
		if !instr.Blocking {
			return false
		}
		for _, st := range instr.States {
			if st.Dir == types.RecvOnly && isTimerChan(st.Chan) {
				return true
			}
		}
	}
	return false
}

// isTimerChan reports whether ch is the channel of a timer: time.After(d), time.Tick(d), or
// the C field of a *time.Timer or *time.Ticker.
func isTimerChan(ch ssa.Value) bool {
	switch ch := ch.(type) {
	case *ssa.Call:
		callee := Callee(ch.Common())
		return typesutil.IsFunc(callee, "time", "After") || typesutil.IsFunc(callee, "time", "Tick")
	case *ssa.UnOp:
		fa, ok := ch.X.(*ssa.FieldAddr)
		if !ok || ch.Op != token.MUL {
			return false
		}
		t := fa.X.Type()
		f := typesutil.FieldVar(t, fa.Field)
		return (typesutil.IsPointerToNamed(t, "time", "Timer") || typesutil.IsPointerToNamed(t, "time", "Ticker")) &&
			f != nil && f.Name() == "C"
	}
	return false
}

// runByTimer reports whether the function v — or a copy of it, a literal calling it — is handed
// to time.AfterFunc as the function the timer runs.
func runByTimer(v ssa.Value, depth int) bool {
	if depth > 3 || v.Referrers() == nil {
		return false
	}
	for _, use := range *v.Referrers() {
		switch use := use.(type) {
		case *ssa.ChangeType: // a CancelFunc passed as a func()
			if runByTimer(use, depth+1) {
				return true
			}
		case *ssa.Call:
			args := use.Common().Args
			if typesutil.IsFunc(Callee(use.Common()), "time", "AfterFunc") && len(args) == 2 && args[1] == v {
				return true
			}
		case *ssa.MakeClosure:
			if callsBound(use, v) && runByTimer(use, depth+1) {
				return true
			}
		case *ssa.Store:
			// The variable a literal captures it in: its loads, and the literals capturing it.
			if cell, ok := use.Addr.(*ssa.Alloc); ok && use.Val == v && runByTimer(cell, depth+1) {
				return true
			}
		case *ssa.UnOp:
			if use.Op == token.MUL && runByTimer(use, depth+1) {
				return true
			}
		}
	}
	return false
}

// tiedBy returns x where the cancel function v — or a copy of it, the variable holding it, a
// literal calling it — is registered with context.AfterFunc(x, …), or nil.
func tiedBy(v ssa.Value, depth int) ssa.Value {
	if depth > 3 || v.Referrers() == nil {
		return nil
	}
	for _, use := range *v.Referrers() {
		var x ssa.Value
		switch use := use.(type) {
		case *ssa.ChangeType: // a CancelFunc passed as a func()
			x = tiedBy(use, depth+1)
		case *ssa.Call:
			x = afterFuncCtx(use, v)
		case *ssa.MakeClosure:
			x = closureTies(use, v)
		case *ssa.Store:
			// The variable a literal captures it in: its loads, and the literals capturing it.
			if cell, ok := use.Addr.(*ssa.Alloc); ok && use.Val == v {
				for _, r := range *cell.Referrers() {
					switch r := r.(type) {
					case *ssa.UnOp:
						if r.Op == token.MUL {
							x = tiedBy(r, depth+1)
						}
					case *ssa.MakeClosure:
						x = closureTies(r, cell)
					}
					if x != nil {
						break
					}
				}
			}
		}
		if x != nil {
			return x
		}
	}
	return nil
}

// afterFuncCtx returns x when call is context.AfterFunc(x, f), or nil.
func afterFuncCtx(call *ssa.Call, f ssa.Value) ssa.Value {
	args := call.Common().Args
	if !IsAfterFunc(Callee(call.Common())) || len(args) != 2 || args[1] != f {
		return nil
	}
	return args[0]
}

// closureTies returns x when the literal mc makes calls v, which it captures (the cancel
// function, or the variable holding it), and is registered with context.AfterFunc(x, mc) — or
// is started by a go statement and calls v once it has received from x.Done() (go func() {
// <-ctx.Done(); cancel() }(), or a select with a case <-ctx.Done() before the call: the idiom
// AfterFunc replaced).
func closureTies(mc *ssa.MakeClosure, v ssa.Value) ssa.Value {
	if !callsBound(mc, v) {
		return nil
	}
	for _, u := range *mc.Referrers() {
		switch u := u.(type) {
		case *ssa.Call:
			if x := afterFuncCtx(u, mc); x != nil {
				return x
			}
		case *ssa.Go:
			if u.Call.Value == mc {
				if x := cancelsAfterDone(mc, v); x != nil {
					return x
				}
			}
		}
	}
	return nil
}

// cancelsAfterDone returns the ctx x, as the literal mc's maker holds it, when every call the
// literal makes of v (which it captures: the cancel function, or the variable holding it) runs
// only after receiving from x.Done(), x being captured too; nil otherwise.
func cancelsAfterDone(mc *ssa.MakeClosure, v ssa.Value) ssa.Value {
	var tied ssa.Value
	for _, c := range boundCalls(mc, v) {
		x := capturedValue(mc, doneCtxBefore(c))
		if x == nil {
			x = capturedValue(mc, doneSelected(mc, c, childOf(v)))
		}
		if x == nil || tied != nil && tied != x {
			return nil
		}
		tied = x
	}
	return tied
}

// capturedValue returns, for a value v of the literal mc makes that is one of its free
// variables or a load of one (a captured variable's cell), the value its maker binds there:
// the value itself, or the one value stored in the variable, only by its own function
// (valueflow.LocalStores); nil otherwise.
func capturedValue(mc *ssa.MakeClosure, v ssa.Value) ssa.Value {
	if load, ok := v.(*ssa.UnOp); ok && load.Op == token.MUL {
		v = load.X
	}
	fv, ok := v.(*ssa.FreeVar)
	if !ok {
		return nil
	}
	i := slices.Index(mc.Fn.(*ssa.Function).FreeVars, fv)
	if i < 0 {
		return nil
	}
	b := mc.Bindings[i]
	cell, ok := b.(*ssa.Alloc)
	if !ok {
		return b
	}
	if stores := valueflow.LocalStores(cell); len(stores) == 1 {
		return stores[0]
	}
	return nil // set more than once, or elsewhere: which ctx is waited on is not known
}

// doneSelected returns the ctx whose Done channel a blocking select of the literal mc waits
// on, when instr runs only in that case's branch and every other case receives from a channel
// that is ready only once the work is over: the Done() of child, the ctx the cancel instr calls
// ends, or a channel the literal's maker makes and closes by a defer as it returns, which
// nothing else sends on, closes or captures —
//
//	done := make(chan struct{})
//	defer close(done)
//	go func() {
//		select {
//		case <-ctx.Done():
//			cancel()
//		case <-done:
//		}
//	}()
//
// the idiom context.AfterFunc(ctx, cancel) with its deferred stop written out: either the ctx
// is done and cancel runs, or the child is already done, or the maker has returned. nil
// otherwise.
func doneSelected(mc *ssa.MakeClosure, instr ssa.Instruction, child ssa.Value) ssa.Value {
	b := instr.Block()
	for d := b.Idom(); d != nil; d = d.Idom() {
		sel, k, succ := SelectCase(d)
		if sel == nil || !sel.Blocking || len(succ.Preds) != 1 || !succ.Dominates(b) || !isDoneChan(sel.States[k].Chan) {
			continue
		}
		for j, st := range sel.States {
			if j == k {
				continue
			}
			if st.Dir != types.RecvOnly {
				return nil
			}
			if isDoneChan(st.Chan) {
				if child == nil || capturedValue(mc, doneCtx(st.Chan)) != child {
					return nil // another ctx's end may come first: the watch would be over
				}
			} else if !closedOnReturn(capturedValue(mc, st.Chan), mc) {
				return nil
			}
		}
		return doneCtx(sel.States[k].Chan)
	}
	return nil
}

// closedOnReturn reports whether ch is a channel made by make and closed by a deferred
// close(ch) in the function that makes it — directly, or through the one variable it is stored
// in — and used there for nothing else but being captured by the literal mc: ready once that
// function returns, and not before.
func closedOnReturn(ch ssa.Value, mc *ssa.MakeClosure) bool {
	mk, ok := ch.(*ssa.MakeChan)
	if !ok {
		return false
	}
	closed := false
	var uses func(v ssa.Value, depth int) bool
	uses = func(v ssa.Value, depth int) bool {
		if depth > 2 {
			return false
		}
		for _, ref := range *v.Referrers() {
			switch ref := ref.(type) {
			case *ssa.DebugRef:
			case *ssa.Defer:
				if bi, ok := ref.Call.Value.(*ssa.Builtin); !ok || bi.Name() != "close" {
					return false
				}
				closed = true
			case *ssa.MakeClosure:
				if ref != mc {
					return false
				}
			case *ssa.Store:
				if ref.Addr == v {
					continue // the variable's one value, stored (capturedValue checked it is one)
				}
				cell, ok := ref.Addr.(*ssa.Alloc)
				if !ok || ref.Val != v || !uses(cell, depth+1) {
					return false
				}
			case *ssa.UnOp:
				if ref.Op != token.MUL || !uses(ref, depth+1) {
					return false
				}
			default:
				return false
			}
		}
		return true
	}
	return uses(mk, 0) && closed
}

// childOf returns the ctx that the cancel function v (the second result of a WithCancel, or
// the variable holding it) ends: the call's first result; nil when it is not known.
func childOf(v ssa.Value) ssa.Value {
	if cell, ok := v.(*ssa.Alloc); ok {
		stores := valueflow.LocalStores(cell)
		if len(stores) != 1 {
			return nil
		}
		v = stores[0]
	}
	ext, ok := v.(*ssa.Extract)
	if !ok {
		return nil
	}
	for _, ref := range *ext.Tuple.Referrers() {
		if e, ok := ref.(*ssa.Extract); ok && e.Index == 0 {
			return e
		}
	}
	return nil
}

// doneCtxBefore returns the ctx whose Done channel instr's function waits on before instr,
// with instr certain to follow once it is done: a receive from ctx.Done(), or a blocking select
// with a case <-ctx.Done(), on every way to instr, and every way on from it reaching instr (go
// func() { select { case <-ctx.Done(): case <-stop: }; cancel() }()); nil otherwise.
func doneCtxBefore(instr ssa.Instruction) ssa.Value {
	b := instr.Block()
	for d := b; d != nil; d = d.Idom() {
		for _, x := range d.Instrs {
			if d == b && x == instr {
				break
			}
			var ch ssa.Value
			switch x := x.(type) {
			case *ssa.UnOp:
				if x.Op == token.ARROW && isDoneChan(x.X) {
					ch = x.X
				}
			case *ssa.Select:
				for _, st := range x.States {
					if x.Blocking && st.Dir == types.RecvOnly && isDoneChan(st.Chan) {
						ch = st.Chan
					}
				}
			}
			if ch != nil && (d == b || allReach(d, b)) {
				return doneCtx(ch)
			}
		}
	}
	return nil
}

// allReach reports whether every way on from block from reaches block to before the function
// returns.
func allReach(from, to *ssa.BasicBlock) bool {
	seen := map[*ssa.BasicBlock]bool{from: true}
	stack := []*ssa.BasicBlock{from}
	for len(stack) > 0 {
		x := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if len(x.Succs) == 0 {
			if _, panics := x.Instrs[len(x.Instrs)-1].(*ssa.Panic); panics {
				continue // the end of the program, not a way around to (a select matching no case)
			}
			return false // a return short of to
		}
		for _, s := range x.Succs {
			if s != to && !seen[s] {
				seen[s] = true
				stack = append(stack, s)
			}
		}
	}
	return true
}

// doneCtx returns the ctx whose Done() made ch (isDoneChan).
func doneCtx(ch ssa.Value) ssa.Value {
	common := ch.(*ssa.Call).Common()
	if common.IsInvoke() {
		return common.Value
	}
	return common.Args[0]
}

// callsBound reports whether the literal mc makes calls the value v it captures, or what the
// variable v holds.
func callsBound(mc *ssa.MakeClosure, v ssa.Value) bool { return len(boundCalls(mc, v)) > 0 }

// boundCalls returns the calls the literal mc makes of the value v it captures, or of what the
// variable v holds (its loads in the literal).
func boundCalls(mc *ssa.MakeClosure, v ssa.Value) []*ssa.Call {
	var out []*ssa.Call
	calls := func(f ssa.Value) {
		for _, ref := range *f.Referrers() {
			if c, ok := ref.(*ssa.Call); ok && c.Common().Value == f {
				out = append(out, c)
			}
		}
	}
	for _, fv := range valueflow.BoundTo(mc, v) {
		calls(fv)
		for _, ref := range *fv.Referrers() {
			if load, ok := ref.(*ssa.UnOp); ok && load.Op == token.MUL {
				calls(load)
			}
		}
	}
	return out
}

// Defaulted reports whether origin o, which reaches a ctx in fn with no deadline on one path,
// is given a default deadline there: the same origin also arrives with a deadline
// (DeadlineOnOtherPath), and fn checks Deadline() on a ctx (ChecksDeadline) — the inline form
// of the default-deadline interceptor, whose path with none is taken only when the ctx has one:
//
//	if _, ok := ctx.Deadline(); !ok {
//		ctx, cancel = context.WithTimeout(ctx, d)
//	}
func Defaulted(fn *ssa.Function, set Set, o Origin) bool {
	return DeadlineOnOtherPath(set, o) && ChecksDeadline(fn)
}

// DeadlineOnOtherPath reports whether set, holding o with no deadline, also holds the same
// origin with one: a deadline applied on some paths only.
func DeadlineOnOtherPath(set Set, o Origin) bool {
	for _, b := range set {
		if b.Deadline && !b.Opaque && b.Kind == o.Kind && b.Call == o.Call && b.Desc == o.Desc && b.Param == o.Param {
			return true
		}
	}
	return false
}

// ChecksDeadline reports whether fn, a function enclosing it, or a ctx-returning helper of its
// package one of them calls, calls Deadline() on a context.Context.
func ChecksDeadline(fn *ssa.Function) bool {
	for f := fn; f != nil; f = f.Parent() {
		if CallsDeadline(f) {
			return true
		}
		for _, b := range f.Blocks {
			for _, instr := range b.Instrs {
				call, ok := instr.(*ssa.Call)
				if !ok {
					continue
				}
				callee := call.Common().StaticCallee()
				if callee != nil && callee.Pkg == f.Pkg && typesutil.ReturnsContext(callee.Signature) && CallsDeadline(callee) {
					return true
				}
			}
		}
	}
	return false
}

// CallsDeadline reports whether fn's own body calls Deadline() on a context.Context.
func CallsDeadline(fn *ssa.Function) bool {
	for _, b := range fn.Blocks {
		for _, instr := range b.Instrs {
			call, ok := instr.(*ssa.Call)
			if !ok {
				continue
			}
			if common := call.Common(); common.IsInvoke() && common.Method.Name() == "Deadline" && typesutil.IsContext(common.Value.Type()) {
				return true
			}
		}
	}
	return false
}
