package missingdeadline

import (
	"go/types"

	"golang.org/x/tools/go/ssa"

	"github.com/deadlinelint/deadlinelint/internal/scope"
	"github.com/deadlinelint/deadlinelint/internal/typesutil"
)

// A method that implements a method of one of the package's own interfaces, one that takes no
// ctx, cannot be given its caller's deadline: the interface's signature decides that none
// reaches it (an interactive shell's commands, `Do(args []string, env *Env, w io.Writer)
// error`). When the package calls that method through the interface only where no ctx is in
// sight all the way up (the shell's loop, reached from main), a root such a method makes is the
// consequence of that decision, and its fix is the interface's: a method that takes a ctx. So is
// a root made in a helper of the package only such methods call, itself with no ctx in sight.
// Neither is reported: one finding per implementation (a shell of a hundred commands) would be a
// hundred findings of one decision. Where a ctx is in sight on the way to the interface call (a
// handler calling the shell's loop), the request's deadline is lost there, and the roots are
// reported as before; so are the implementations of interfaces of other packages (io.Reader's
// Read, a plugin API), whose calls are out of sight.

// sealed returns the package's declared functions whose roots are the consequence of one of its
// interfaces without a ctx (see above), with no ctx in sight themselves, and called directly, if
// at all, only by others of them (test code aside):
//   - the methods that implement a method taking no ctx of one of the package's interfaces, when
//     the package calls that method through an interface the receiver implements, and every such
//     call is reached only from code with no ctx in sight;
//   - the unexported functions only those functions call, that are never used as values.
func (c *checker) sealed() map[*ssa.Function]bool {
	if c.sealedFns != nil {
		return c.sealedFns
	}
	c.sealedFns = make(map[*ssa.Function]bool)
	own := c.ownInterfaces()
	if len(own) == 0 {
		return c.sealedFns
	}
	g := c.packageCalls()
	visible := c.visibleInterfaces()
	for _, fn := range g.funcs {
		obj, ok := fn.Object().(*types.Func)
		if !ok || fn.Parent() != nil || fn.Synthetic != "" || obj.Pkg() != c.pass.Pkg ||
			ctxInSight(obj.Signature(), c.pass.Pkg) || g.escapes[fn] || scope.RunByTest(fn) || c.info.Scopes.Of(fn) != nil {
			continue
		}
		switch {
		case obj.Signature().Recv() != nil && implementsNoCtx(obj, own):
			if c.ctxlessInvokes(g, obj) {
				c.sealedFns[fn] = true
			}
		case !obj.Exported() && len(g.callers[fn]) > 0 &&
			(obj.Signature().Recv() == nil || len(g.invokes[obj.Name()]) == 0 && !maybeImplements(obj, visible)):
			c.sealedFns[fn] = true
		}
	}
	// The greatest set closed under "every caller is in it": a command calling itself, or helpers
	// calling each other, stay in.
	for changed := true; changed; {
		changed = false
		for fn := range c.sealedFns {
			for _, caller := range g.callers[fn] {
				if d := declOf(caller); !c.sealedFns[d] && !scope.RunByTest(d) {
					delete(c.sealedFns, fn)
					changed = true
					break
				}
			}
		}
	}
	return c.sealedFns
}

// isSealed reports whether a root is made, and handed to the RPC by site s, in functions whose
// roots an interface without a ctx decides (sealed), with no ctx in sight in the function
// literals they are made in either.
func (c *checker) isSealed(s *site, root *ssa.Call) bool {
	if root == nil {
		return false // made in another package: its own decision
	}
	for _, fn := range []*ssa.Function{s.fn, root.Parent()} {
		for f := fn; f.Parent() != nil; f = f.Parent() {
			if ctxInSight(f.Signature, c.pass.Pkg) {
				return false
			}
		}
	}
	sealed := c.sealed()
	return sealed[declOf(s.fn)] && sealed[declOf(root.Parent())]
}

// ctxlessInvokes reports whether the package calls the method m through an interface that m's
// receiver implements, outside test code, and reaches each such call only from code with no
// ctx in sight.
func (c *checker) ctxlessInvokes(g *calls, m *types.Func) bool {
	recv := m.Signature().Recv().Type()
	n := 0
	for _, inv := range g.invokes[m.Name()] {
		if typesutil.Implementing(recv, inv.iface) != nil && !scope.RunByTest(declOf(inv.fn)) {
			if !c.reachedWithoutCtx(g, inv.fn) {
				return false
			}
			n++
		}
	}
	return n > 0
}

// reachedWithoutCtx reports whether no function on a way to fn within the package — fn, the
// literals it is nested in, their callers, up to functions called from other packages — has a
// ctx in sight or is a request scope. A function used as a value has callers out of sight: it
// is not.
func (c *checker) reachedWithoutCtx(g *calls, fn *ssa.Function) bool {
	seen := make(map[*ssa.Function]bool)
	stack := []*ssa.Function{fn}
	for len(stack) > 0 {
		f := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if seen[f] {
			continue
		}
		seen[f] = true
		for p := f; p != nil; p = p.Parent() {
			if ctxInSight(p.Signature, c.pass.Pkg) || c.info.Scopes.Of(p) != nil {
				return false
			}
		}
		d := declOf(f)
		if scope.RunByTest(d) {
			continue
		}
		if g.escapes[d] {
			return false
		}
		stack = append(stack, g.callers[d]...)
	}
	return true
}

// ownInterfaces returns the non-generic interface types with methods declared at package level
// in the package, constraints with a type set left out.
func (c *checker) ownInterfaces() []*types.Interface { return interfacesOf(c.pass.Pkg) }

// visibleInterfaces returns the interfaces of the package and of the packages it imports.
func (c *checker) visibleInterfaces() []*types.Interface {
	out := interfacesOf(c.pass.Pkg)
	for _, p := range c.pass.Pkg.Imports() {
		out = append(out, interfacesOf(p)...)
	}
	return out
}

func interfacesOf(p *types.Package) []*types.Interface {
	var out []*types.Interface
	scope := p.Scope()
	for _, name := range scope.Names() {
		tn, ok := scope.Lookup(name).(*types.TypeName)
		if !ok {
			continue
		}
		if named, ok := types.Unalias(tn.Type()).(*types.Named); ok && named.TypeParams().Len() > 0 {
			continue
		}
		if iface, ok := tn.Type().Underlying().(*types.Interface); ok && iface.NumMethods() > 0 && iface.IsMethodSet() {
			out = append(out, iface)
		}
	}
	return out
}

// implementsNoCtx reports whether the method m is, for its receiver type, the implementation
// of a method of one of ifaces that takes no ctx.
func implementsNoCtx(m *types.Func, ifaces []*types.Interface) bool {
	recv := m.Signature().Recv().Type()
	for _, iface := range ifaces {
		if im := methodNamed(iface, m.Name()); im != nil && !ctxInSight(im.Signature(), m.Pkg()) && typesutil.Implementing(recv, iface) != nil {
			return true
		}
	}
	return false
}

// maybeImplements reports whether the method m may be called through one of ifaces: one of
// them has a method of its name. Its callers are then not all in sight.
func maybeImplements(m *types.Func, ifaces []*types.Interface) bool {
	for _, iface := range ifaces {
		if methodNamed(iface, m.Name()) != nil {
			return true
		}
	}
	return false
}

func methodNamed(iface *types.Interface, name string) *types.Func {
	for i := range iface.NumMethods() {
		if m := iface.Method(i); m.Name() == name {
			return m
		}
	}
	return nil
}

// ctxInSight reports whether a function of package pkg with signature sig can reach a ctx, or
// a cancellation, from its receiver or parameters (carriesCtx).
func ctxInSight(sig *types.Signature, pkg *types.Package) bool {
	if r := sig.Recv(); r != nil && carriesCtx(r.Type(), pkg, 0) {
		return true
	}
	for i := range sig.Params().Len() {
		if carriesCtx(sig.Params().At(i).Type(), pkg, 0) {
			return true
		}
	}
	return false
}

// carriesCtx reports whether a value of type t is, or holds within two fields that code of
// package pkg can read, a context.Context, a value with a Context() method (an *http.Request, a
// server stream), or a receive-only channel of struct{} (a FUSE request's cancel channel). An
// unexported field of another package's type (a client's own lifetime ctx) is out of reach.
func carriesCtx(t types.Type, pkg *types.Package, depth int) bool {
	if typesutil.IsContext(t) {
		return true
	}
	if ch, ok := types.Unalias(t).(*types.Chan); ok && ch.Dir() == types.RecvOnly {
		if st, ok := ch.Elem().Underlying().(*types.Struct); ok && st.NumFields() == 0 {
			return true
		}
	}
	if typesutil.HasContextMethod(t) {
		return true
	}
	if depth >= 2 {
		return false
	}
	if p, ok := types.Unalias(t).(*types.Pointer); ok {
		t = p.Elem()
	}
	if st, ok := t.Underlying().(*types.Struct); ok {
		for i := range st.NumFields() {
			f := st.Field(i)
			if (f.Exported() || f.Pkg() == pkg) && carriesCtx(f.Type(), pkg, depth+1) {
				return true
			}
		}
	}
	return false
}

// calls is the package's call graph between its functions, as sealed needs it.
type calls struct {
	funcs   []*ssa.Function                   // every function of the package, literals and generated files' included
	callers map[*ssa.Function][]*ssa.Function // the functions (or literals) calling each directly
	escapes map[*ssa.Function]bool            // used otherwise than as a static callee (a value, a method value): callers out of sight
	invokes map[string][]invoke               // the calls of interface methods, by the method's name
}

// An invoke is a call of an interface method (or the making of its method value) in fn.
type invoke struct {
	fn    *ssa.Function
	iface *types.Interface
}

// packageCalls builds the package's calls, from every function of the package: those the rules
// analyse, the package initialiser, and those of generated files.
func (c *checker) packageCalls() *calls {
	g := &calls{
		callers: make(map[*ssa.Function][]*ssa.Function),
		escapes: make(map[*ssa.Function]bool),
		invokes: make(map[string][]invoke),
	}
	g.funcs = c.packageFuncs()
	var ops []*ssa.Value
	for _, fn := range g.funcs {
		for _, b := range fn.Blocks {
			for _, instr := range b.Instrs {
				var callee ssa.Value
				if call, ok := instr.(ssa.CallInstruction); ok {
					common := call.Common()
					if common.IsInvoke() {
						if iface, ok := common.Value.Type().Underlying().(*types.Interface); ok {
							g.invokes[common.Method.Name()] = append(g.invokes[common.Method.Name()], invoke{fn, iface})
						}
					} else {
						callee = common.Value
					}
				}
				ops = instr.Operands(ops[:0])
				for _, op := range ops {
					f, ok := (*op).(*ssa.Function)
					if !ok {
						continue
					}
					if o := f.Origin(); o != nil {
						f = o // an instantiation: its generic function's call, or value
					}
					obj, _ := f.Object().(*types.Func)
					if f.Synthetic != "" {
						if obj == nil {
							continue
						}
						if recv := obj.Signature().Recv(); recv != nil {
							if iface, ok := recv.Type().Underlying().(*types.Interface); ok {
								// The method value of an interface method: a call of it, later.
								g.invokes[obj.Name()] = append(g.invokes[obj.Name()], invoke{fn, iface})
								continue
							}
						}
						if v := c.info.Pkg.Prog.FuncValue(obj); v != nil {
							g.escapes[v] = true // a method value or expression
						}
						continue
					}
					if f.Pkg != c.info.Pkg {
						continue
					}
					if *op == callee {
						g.callers[f] = append(g.callers[f], fn)
					} else {
						g.escapes[f] = true
					}
				}
			}
		}
	}
	return g
}

// packageFuncs returns every function of the package with a body: its functions (the
// initialiser included), the methods of its types, and the literals in them.
func (c *checker) packageFuncs() []*ssa.Function {
	var out []*ssa.Function
	seen := make(map[*ssa.Function]bool)
	var add func(*ssa.Function)
	add = func(f *ssa.Function) {
		if f == nil || seen[f] || f.Pkg != c.info.Pkg {
			return
		}
		seen[f] = true
		out = append(out, f)
		for _, a := range f.AnonFuncs {
			add(a)
		}
	}
	for _, fn := range c.info.Funcs {
		add(fn)
	}
	for _, m := range c.info.Pkg.Members {
		switch m := m.(type) {
		case *ssa.Function:
			add(m)
		case *ssa.Type:
			named, ok := types.Unalias(m.Type()).(*types.Named)
			if !ok {
				continue
			}
			for i := range named.NumMethods() {
				add(c.info.Pkg.Prog.FuncValue(named.Method(i)))
			}
		}
	}
	return out
}
