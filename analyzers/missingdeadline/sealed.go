package missingdeadline

import (
	"go/types"

	"golang.org/x/tools/go/ssa"

	"github.com/deadlinelint/deadlinelint/internal/typesutil"
)

// A method that implements an interface method taking no ctx cannot be given its caller's
// deadline: the interface's signature decides that none reaches it (an interactive shell's
// commands, `Do(args []string, env *Env, w io.Writer) error`; a versioned plugin API;
// io.Reader's Read). A root such a method makes is that decision's consequence, and its fix is
// the interface's: a method that takes a ctx, a change of API the analysis cannot judge one
// implementation at a time. So is a root made in a helper of the package only such methods
// call, itself with no ctx in sight. Neither is reported: one finding per implementation (a
// shell of a hundred commands) would be a hundred findings of one decision, and which bound
// would be right for each is out of the analysis's sight.

// sealed returns the package's declared functions whose roots are the consequence of an
// interface without a ctx (see above), with no ctx in sight themselves, and called directly (if
// at all) only by others of them:
//   - the methods that implement an interface method taking no ctx, when the package calls that
//     method through an interface, and only where no ctx is in sight either (a shell's loop
//     calling c.Do(args, env, os.Stdout)): a caller with a ctx, a handler, would lose its
//     deadline there;
//   - the unexported functions only those functions call.
func (c *checker) sealed() map[*ssa.Function]bool {
	if c.sealedFns != nil {
		return c.sealedFns
	}
	c.sealedFns = make(map[*ssa.Function]bool)
	ifaces := c.visibleInterfaces()
	if len(ifaces) == 0 {
		return c.sealedFns
	}
	g := c.declCalls()
	var candidates []*ssa.Function
	for _, fn := range c.info.Funcs {
		obj, ok := fn.Object().(*types.Func)
		if !ok || fn.Parent() != nil || obj.Pkg() != c.pass.Pkg || ctxInSight(obj.Signature()) || g.escapes[fn] {
			continue
		}
		switch {
		case obj.Signature().Recv() != nil && implementsNoCtx(obj, ifaces):
			if g.ctxlessInvokes(obj.Name()) {
				candidates = append(candidates, fn)
			}
		case !obj.Exported() && len(g.callers[fn]) > 0 && !maybeImplements(obj, ifaces):
			candidates = append(candidates, fn)
		}
	}
	for changed := true; changed; {
		changed = false
		for _, fn := range candidates {
			if c.sealedFns[fn] {
				continue
			}
			all := true
			for _, caller := range g.callers[fn] {
				all = all && c.sealedFns[caller]
			}
			if all {
				c.sealedFns[fn] = true
				changed = true
			}
		}
	}
	return c.sealedFns
}

// isSealed reports whether finding f's root is made, and handed to the RPC, in functions whose
// roots an interface without a ctx decides (sealed).
func (c *checker) isSealed(s *site, root *ssa.Call) bool {
	if root == nil {
		return false // made in another package: its own decision
	}
	sealed := c.sealed()
	return sealed[declOf(s.fn)] && sealed[declOf(root.Parent())]
}

// visibleInterfaces returns the non-empty interface types declared at package level in the
// package and in the packages it imports.
func (c *checker) visibleInterfaces() []*types.Interface {
	var out []*types.Interface
	add := func(p *types.Package) {
		scope := p.Scope()
		for _, name := range scope.Names() {
			tn, ok := scope.Lookup(name).(*types.TypeName)
			if !ok || tn.IsAlias() {
				continue
			}
			named, ok := tn.Type().(*types.Named)
			if !ok || named.TypeParams().Len() > 0 {
				continue
			}
			if iface, ok := named.Underlying().(*types.Interface); ok && iface.NumMethods() > 0 {
				out = append(out, iface)
			}
		}
	}
	add(c.pass.Pkg)
	for _, p := range c.pass.Pkg.Imports() {
		add(p)
	}
	return out
}

// implementsNoCtx reports whether the method m is, for its receiver type, the implementation
// of a method of one of ifaces that takes no ctx.
func implementsNoCtx(m *types.Func, ifaces []*types.Interface) bool {
	recv := m.Signature().Recv().Type()
	for _, iface := range ifaces {
		if im := methodNamed(iface, m.Name()); im != nil && !ctxInSight(im.Signature()) && types.Implements(recv, iface) {
			return true
		}
	}
	return false
}

// maybeImplements reports whether the method m may be called through one of ifaces: one of
// them has a method of its name. Its callers are then not all in sight.
func maybeImplements(m *types.Func, ifaces []*types.Interface) bool {
	if m.Signature().Recv() == nil {
		return false
	}
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

// ctxInSight reports whether a function of signature sig can reach a ctx, or a cancellation,
// from its receiver or parameters: one is a context.Context, has a Context() method (an
// *http.Request, a server stream), is a struct, or a pointer to one, with a context.Context
// field, or is a receive-only channel of struct{} (a FUSE request's cancel channel).
func ctxInSight(sig *types.Signature) bool {
	vars := []*types.Var{}
	if r := sig.Recv(); r != nil {
		vars = append(vars, r)
	}
	for i := range sig.Params().Len() {
		vars = append(vars, sig.Params().At(i))
	}
	for _, v := range vars {
		if carriesCtx(v.Type()) {
			return true
		}
	}
	return false
}

func carriesCtx(t types.Type) bool {
	if typesutil.IsContext(t) {
		return true
	}
	if ch, ok := types.Unalias(t).(*types.Chan); ok && ch.Dir() == types.RecvOnly {
		if st, ok := ch.Elem().Underlying().(*types.Struct); ok && st.NumFields() == 0 {
			return true
		}
	}
	if obj, _, _ := types.LookupFieldOrMethod(t, true, nil, "Context"); obj != nil {
		if fn, ok := obj.(*types.Func); ok && fn.Signature().Results().Len() == 1 && typesutil.IsContext(fn.Signature().Results().At(0).Type()) {
			return true
		}
	}
	if p, ok := types.Unalias(t).(*types.Pointer); ok {
		t = p.Elem()
	}
	if st, ok := t.Underlying().(*types.Struct); ok {
		for i := range st.NumFields() {
			if typesutil.IsContext(st.Field(i).Type()) {
				return true
			}
		}
	}
	return false
}

// calls is the package's call graph between declared functions, as sealed needs it.
type calls struct {
	callers map[*ssa.Function][]*ssa.Function // the declared functions whose bodies (or literals in them) call each directly
	escapes map[*ssa.Function]bool            // used otherwise than as a static callee (a value, a method value): callers out of sight
	invokes map[string][]*ssa.Function        // the functions (and literals) calling an interface method, by its name
}

// ctxlessInvokes reports whether the package calls an interface method of this name, and only
// in functions with no ctx in sight.
func (g *calls) ctxlessInvokes(name string) bool {
	for _, fn := range g.invokes[name] {
		if ctxInSight(fn.Signature) || ctxInSight(declOf(fn).Signature) {
			return false
		}
	}
	return len(g.invokes[name]) > 0
}

// declCalls builds the package's calls.
func (c *checker) declCalls() *calls {
	g := &calls{
		callers: make(map[*ssa.Function][]*ssa.Function),
		escapes: make(map[*ssa.Function]bool),
		invokes: make(map[string][]*ssa.Function),
	}
	var ops []*ssa.Value
	for _, fn := range c.info.Funcs {
		caller := declOf(fn)
		for _, b := range fn.Blocks {
			for _, instr := range b.Instrs {
				var callee ssa.Value
				if call, ok := instr.(ssa.CallInstruction); ok {
					common := call.Common()
					if common.IsInvoke() {
						g.invokes[common.Method.Name()] = append(g.invokes[common.Method.Name()], fn)
					} else {
						callee = common.Value
					}
				}
				ops = instr.Operands(ops[:0])
				for _, op := range ops {
					f, ok := (*op).(*ssa.Function)
					if !ok || f.Pkg != c.info.Pkg {
						continue
					}
					if f.Synthetic != "" {
						if obj, ok := f.Object().(*types.Func); ok {
							f = c.info.Pkg.Prog.FuncValue(obj) // a method value or expression
						}
						if f != nil {
							g.escapes[f] = true
						}
						continue
					}
					if *op == callee {
						g.callers[f] = append(g.callers[f], caller)
					} else {
						g.escapes[f] = true
					}
				}
			}
		}
	}
	return g
}
