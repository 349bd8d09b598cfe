package ctxorigin

import (
	"go/constant"
	"go/token"
	"go/types"

	"golang.org/x/tools/go/ssa"

	"github.com/deadlinelint/deadlinelint/internal/typesutil"
)

// OptionsSwitchOff reports whether the call passes functional options that switch off every
// use its callee makes of its ctx. The callee is a function of the package analysed (its body
// is here) whose one ctx parameter is followed, last, by variadic options (opt ...Option,
// Option a func(*T)); it builds a T by applying them in turn with a function of the package
// (opts := GetOpts(opt...)) and uses its ctx only where a bool field F of that T is false (`if
// opts.withoutEvent { return err }` before the event is written with the ctx). Among the options
// the call writes out, each made by a function of the package (WithoutEvent(), WithMsg(m)) or a
// declared function, one sets F to true and no other writes F: errors.E(ctx, WithoutEvent(),
// WithMsg(m)) does no work with its ctx. Options handed on from elsewhere (E(ctx, opt...)), an
// option that may write F otherwise (WithEvent(), WithoutEventIf(b)) or one whose *T goes where
// it cannot be followed keep the call's ctx in use.
func OptionsSwitchOff(common *ssa.CallCommon) bool {
	fn := common.StaticCallee()
	if fn == nil || fn.Blocks == nil || !fn.Signature.Variadic() || len(common.Args) != len(fn.Params) {
		return false
	}
	opt := fn.Params[len(fn.Params)-1]
	var ctx *ssa.Parameter
	for _, p := range fn.Params[:len(fn.Params)-1] {
		if typesutil.IsContext(p.Type()) {
			if ctx != nil {
				return false // two ctx parameters
			}
			ctx = p
		}
	}
	if ctx == nil {
		return false
	}
	f := switchField(ctx, opt)
	return f != nil && passesOnly(common.Args[len(common.Args)-1], f, fn.Pkg)
}

// switchField returns the bool field F of the options fn builds from its options parameter opt
// such that every use fn makes of its parameter p runs only when F is false; nil when there is
// none (p unused, a use not under such a branch, two uses under different fields).
func switchField(p, opt *ssa.Parameter) *types.Var {
	var field *types.Var
	uses := 0
	for _, ref := range *p.Referrers() {
		if _, ok := ref.(*ssa.DebugRef); ok {
			continue
		}
		uses++
		f := falseUnder(ref.Block(), opt)
		if f == nil || field != nil && f != field {
			return nil
		}
		field = f
	}
	if uses == 0 {
		return nil
	}
	return field
}

// falseUnder returns the field F of the options built from opt such that block b runs only
// after a branch on F took its false way; nil when none does.
func falseUnder(b *ssa.BasicBlock, opt *ssa.Parameter) *types.Var {
	if b == nil {
		return nil
	}
	for d := b.Idom(); d != nil; d = d.Idom() {
		cond, ok := d.Instrs[len(d.Instrs)-1].(*ssa.If)
		if !ok {
			continue
		}
		f, negated := optionField(cond.Cond, opt)
		if f == nil {
			continue
		}
		succ := 1 // the way a false condition takes
		if negated {
			succ = 0
		}
		if OnlyVia(d, succ, b) {
			return f
		}
	}
	return nil
}

// optionField returns the bool field a condition reads from the options built from opt
// (opts.F, or !opts.F with negated true); nil when it reads none.
func optionField(v ssa.Value, opt *ssa.Parameter) (f *types.Var, negated bool) {
	switch v := v.(type) {
	case *ssa.UnOp:
		if v.Op == token.NOT {
			f, negated = optionField(v.X, opt)
			return f, !negated
		}
		addr, ok := v.X.(*ssa.FieldAddr)
		if v.Op != token.MUL || !ok {
			break
		}
		if f = typesutil.FieldVar(addr.X.Type(), addr.Field); isBool(f) && builtFrom(addr.X, opt, f) {
			return f, false
		}
	case *ssa.Field:
		if f = typesutil.FieldVar(v.X.Type(), v.Field); isBool(f) && builtFrom(v.X, opt, f) {
			return f, false
		}
	}
	return nil, false
}

// isBool reports whether f is a bool field.
func isBool(f *types.Var) bool {
	return f != nil && types.Identical(f.Type(), types.Typ[types.Bool])
}

// builtFrom reports whether v holds the options a function of the package builds by applying
// opt in turn (opts := GetOpts(opt...)), or the address of a local holding them and nothing
// else, whose field f nothing writes.
func builtFrom(v ssa.Value, opt *ssa.Parameter, f *types.Var) bool {
	switch v := v.(type) {
	case *ssa.Call:
		return applies(v, opt, f)
	case *ssa.Alloc:
		stores := 0
		for _, ref := range *v.Referrers() {
			switch ref := ref.(type) {
			case *ssa.Store:
				if ref.Addr != v || !applies(ref.Val, opt, f) {
					return false
				}
				stores++
			case *ssa.FieldAddr:
				if typesutil.FieldVar(v.Type(), ref.Field) == f && !onlyLoaded(ref) {
					return false
				}
			case *ssa.DebugRef:
			default:
				return false // the local's address goes elsewhere, or it is loaded whole
			}
		}
		return stores == 1
	}
	return false
}

// onlyLoaded reports whether the address addr is only read through.
func onlyLoaded(addr ssa.Value) bool {
	for _, ref := range *addr.Referrers() {
		if u, ok := ref.(*ssa.UnOp); !ok || u.Op != token.MUL {
			if _, ok := ref.(*ssa.DebugRef); !ok {
				return false
			}
		}
	}
	return true
}

// applies reports whether v is a call of a function of the package given opt alone, passed on
// whole (GetOpts(opt...)), that builds its result by calling the options in turn: it writes no
// field f itself and calls nothing but the elements of its parameter, each with one argument,
// builtins (len) and functions that take nothing (getDefaultOptions()).
func applies(v ssa.Value, opt *ssa.Parameter, f *types.Var) bool {
	call, ok := v.(*ssa.Call)
	if !ok {
		return false
	}
	g := call.Call.StaticCallee()
	if g == nil || g.Blocks == nil || g.Pkg != opt.Parent().Pkg || len(call.Call.Args) != 1 || call.Call.Args[0] != opt || len(g.Params) != 1 {
		return false
	}
	applied := false
	for _, b := range g.Blocks {
		for _, instr := range b.Instrs {
			switch instr := instr.(type) {
			case *ssa.FieldAddr:
				if typesutil.FieldVar(instr.X.Type(), instr.Field) == f {
					return false
				}
			case ssa.CallInstruction:
				c := instr.Common()
				if _, builtin := c.Value.(*ssa.Builtin); builtin || len(c.Args) == 0 && c.StaticCallee() != nil {
					continue // len(opt), defaults()
				}
				if !elementOf(c.Value, g.Params[0]) || len(c.Args) != 1 {
					return false
				}
				applied = true
			}
		}
	}
	return applied
}

// elementOf reports whether v is an element of the slice s, read in a range over it.
func elementOf(v ssa.Value, s ssa.Value) bool {
	switch v := v.(type) {
	case *ssa.UnOp:
		addr, ok := v.X.(*ssa.IndexAddr)
		return v.Op == token.MUL && ok && addr.X == s
	case *ssa.Index:
		return v.X == s
	}
	return false
}

// An optionEffect is what one option does to the field F.
type optionEffect int

const (
	optUntouched optionEffect = iota // never writes F
	optSetsTrue                      // writes true to F, and nothing else to it
	optUnknown                       // may write F otherwise, or its *T goes out of sight
)

// ListedArgs returns the values a variadic argument holds when the call writes its list out
// (f(a, b) with f(xs ...T) packs a and b into a local array it slices): the values stored into
// the array's elements, and whether the array is used for nothing else. Nil and false for
// any other argument (a slice handed on, xs...).
func ListedArgs(arg ssa.Value) (vals []ssa.Value, only bool) {
	slice, ok := arg.(*ssa.Slice)
	if !ok {
		return nil, false
	}
	array, ok := slice.X.(*ssa.Alloc)
	if !ok {
		return nil, false
	}
	only = true
	for _, ref := range *array.Referrers() {
		if ref == slice {
			continue
		}
		elem, ok := ref.(*ssa.IndexAddr)
		if !ok {
			only = false
			continue
		}
		for _, eref := range *elem.Referrers() {
			if store, ok := eref.(*ssa.Store); ok && store.Addr == elem {
				vals = append(vals, store.Val)
			} else {
				only = false
			}
		}
	}
	return vals, only
}

// passesOnly reports whether arg, the variadic options of a call, is a list written out at the
// call of which one option sets f to true and none other writes f.
func passesOnly(arg ssa.Value, f *types.Var, pkg *ssa.Package) bool {
	opts, only := ListedArgs(arg)
	if !only {
		return false
	}
	sets := false
	for _, o := range opts {
		switch optionDoes(o, f, pkg) {
		case optSetsTrue:
			sets = true
		case optUnknown:
			return false
		}
	}
	return sets
}

// optionDoes returns what the option v does to f: a declared function or a literal of the
// package, or the literal every return of a function of the package gives (WithoutEvent()).
func optionDoes(v ssa.Value, f *types.Var, pkg *ssa.Package) optionEffect {
	switch v := v.(type) {
	case *ssa.Function:
		return bodyDoes(v, f, pkg)
	case *ssa.MakeClosure:
		return bodyDoes(v.Fn.(*ssa.Function), f, pkg)
	case *ssa.ChangeType:
		return optionDoes(v.X, f, pkg) // a func literal made an Option
	case *ssa.Call:
		g := v.Call.StaticCallee()
		if g == nil || g.Blocks == nil || g.Pkg != pkg {
			return optUnknown
		}
		effect, returns := optUntouched, 0
		for _, b := range g.Blocks {
			ret, ok := b.Instrs[len(b.Instrs)-1].(*ssa.Return)
			if !ok || len(ret.Results) != 1 {
				continue
			}
			returns++
			if _, ok := ret.Results[0].(*ssa.Call); ok {
				return optUnknown // an option another call makes: not followed further
			}
			e := optionDoes(ret.Results[0], f, pkg)
			if returns > 1 && e != effect {
				return optUnknown
			}
			effect = e
		}
		if returns == 0 {
			return optUnknown
		}
		return effect
	}
	return optUnknown
}

// bodyDoes returns what the option function fn, of the package, does to f through its one
// parameter: every use of which is a field's address, only stored to or read through.
func bodyDoes(fn *ssa.Function, f *types.Var, pkg *ssa.Package) optionEffect {
	if fn.Blocks == nil || fn.Pkg != pkg || len(fn.Params) != 1 {
		return optUnknown
	}
	effect := optUntouched
	for _, ref := range *fn.Params[0].Referrers() {
		switch ref := ref.(type) {
		case *ssa.DebugRef:
		case *ssa.FieldAddr:
			if typesutil.FieldVar(ref.X.Type(), ref.Field) != f {
				continue // another field: its value does not matter (a map's or slice's elements are not F)
			}
			for _, fref := range *ref.Referrers() {
				switch fref := fref.(type) {
				case *ssa.Store:
					c, ok := fref.Val.(*ssa.Const)
					if fref.Addr != ref || !ok || c.Value == nil || c.Value.Kind() != constant.Bool || !constant.BoolVal(c.Value) {
						return optUnknown
					}
					effect = optSetsTrue
				case *ssa.UnOp:
				case *ssa.DebugRef:
				default:
					return optUnknown
				}
			}
		default:
			return optUnknown // *o = Options{}, or o handed on
		}
	}
	return effect
}
