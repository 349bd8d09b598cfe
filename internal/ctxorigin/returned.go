package ctxorigin

import (
	"fmt"
	"strings"

	"golang.org/x/tools/go/ssa"

	"github.com/deadlinelint/deadlinelint/internal/typesutil"
)

// Returned is the object fact of an exported function of the user's code that returns a
// context.Context: for each result, where the ctx it returns comes from, in terms of the
// function's parameters. A call to the function from another package is resolved with it as
// if the body were there: telemetry.StartLinked(ctx, ...) returning a span's ctx on
// context.Background() is a root, not a child of ctx.
type Returned struct {
	Results [][]ReturnedOrigin // by result index; nil for a result that is not a ctx
	// Given is 1 + the index of the parameter (the receiver first) whose duration decides
	// whether the function applies a deadline (DurationGiven), or 0.
	Given int
	// Chosen is set when the function applies its deadline only when a package-level variable
	// is set (durationChosen): a -timeout flag that defaults to none.
	Chosen bool
}

// ReturnedOrigin is one way a returned ctx is computed. Only what can cross a package
// boundary is kept: a root or detached context created in the function (or below it), a ctx
// derived from a parameter, a field of a parameter (a lifecycle manager's m.ctx) or of a
// package-level variable, and a package-level variable. Anything else is Unknown.
type ReturnedOrigin struct {
	Kind Kind // Root, Detached, Param, Field, Global or Unknown
	// Param is, for Param, the index of the parameter among the SSA parameters (receiver
	// first); for Field, that of the parameter holding the struct, or -1 when a package-level
	// variable holds it.
	Param int
	// Desc is, for Root and Detached, the call that made the context, "context.Background()
	// at tracing.go:68"; for Field, the field's name; for Global, the variable, "app.rootCtx".
	Desc     string
	Deadline bool
	Opaque   bool
}

// AFact marks Returned as an analysis fact.
func (*Returned) AFact() {}

func (f *Returned) String() string {
	var parts []string
	for i, res := range f.Results {
		if res == nil {
			continue
		}
		var os []string
		for _, o := range res {
			s := o.Kind.String()
			switch o.Kind {
			case Param:
				s += fmt.Sprint(" ", o.Param)
			case Root, Detached, Global:
				s += " " + o.Desc
			case Field:
				s += fmt.Sprintf(" %s of %d", o.Desc, o.Param)
			}
			if o.Deadline {
				s += "+deadline"
			}
			if o.Opaque {
				s += "+opaque"
			}
			os = append(os, s)
		}
		parts = append(parts, fmt.Sprintf("%d: [%s]", i, strings.Join(os, ", ")))
	}
	if f.Given > 0 {
		parts = append(parts, fmt.Sprint("deadline given by ", f.Given-1))
	}
	if f.Chosen {
		parts = append(parts, "deadline chosen by a variable")
	}
	return "returns " + strings.Join(parts, "; ")
}

// ReturnedOf summarises, for a Returned fact, the ctx results of fn, a function of the
// package; nil when fn returns no ctx.
func (r *Resolver) ReturnedOf(fn *ssa.Function) *Returned {
	if !typesutil.ReturnsContext(fn.Signature) {
		return nil
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	r.steps = 0
	sum := r.summary(fn)
	f := &Returned{Results: make([][]ReturnedOrigin, len(sum)), Given: DurationGiven(fn) + 1, Chosen: r.durationChosen(fn)}
	for i, set := range sum {
		if !typesutil.IsContext(fn.Signature.Results().At(i).Type()) {
			continue
		}
		f.Results[i] = []ReturnedOrigin{}
		for _, o := range set {
			if o.Kind == Root && o.Call != nil && ReplacesNoCtx(o.Call) {
				continue // replaces no caller's ctx (a nil fallback, a one-time initialisation)
			}
			f.Results[i] = append(f.Results[i], exported(fn, o))
		}
	}
	return f
}

// exported turns an origin of fn's result into its portable form.
func exported(fn *ssa.Function, o Origin) ReturnedOrigin {
	ro := ReturnedOrigin{Kind: Unknown, Deadline: o.Deadline, Opaque: o.Opaque}
	switch {
	case o.Kind == Param && o.Param.Parent() == fn:
		ro.Kind, ro.Param = Param, ParamIndex(fn, o.Param)
	case (o.Kind == Root || o.Kind == Detached) && o.Call != nil:
		ro.Kind, ro.Desc = o.Kind, Describe(o.Call)
	case (o.Kind == Root || o.Kind == Detached) && o.Call == nil:
		ro.Kind, ro.Desc = o.Kind, o.Desc
	case o.Kind == Field && o.FieldVar != nil && o.baseParam != nil && o.baseParam.Parent() == fn:
		ro.Kind, ro.Param, ro.Desc = Field, ParamIndex(fn, o.baseParam), o.FieldVar.Name()
	case o.Kind == Field && o.FieldVar != nil && o.FieldBase == GlobalBase:
		ro.Kind, ro.Param, ro.Desc = Field, -1, o.FieldVar.Name()
	case o.Kind == Global && o.Global != nil:
		ro.Kind, ro.Desc = Global, o.Global.Pkg.Pkg.Name()+"."+o.Global.Name()
	case o.Kind == Global:
		ro.Kind, ro.Desc = Global, o.Desc
	}
	return ro
}

// Describe spells a context-creating call for messages and facts, with the full name of its
// file (the driver writes it relative, as it does positions): "context.Background() at
// /src/app/tracing/tracing.go:68".
func Describe(call *ssa.Call) string {
	p := call.Parent().Prog.Fset.Position(call.Pos())
	name := "context"
	if fn := Callee(call.Common()); fn != nil {
		name += "." + fn.Name()
	}
	return fmt.Sprintf("%s() at %s:%d", name, p.Filename, p.Line)
}

// ParamIndex returns the index of p among fn's SSA parameters (the receiver first), or -1.
func ParamIndex(fn *ssa.Function, p *ssa.Parameter) int {
	for i, q := range fn.Params {
		if q == p {
			return i
		}
	}
	return -1
}

// returnedField is the origin of a ctx that a function of another package returned from a
// struct field: of a package-level variable (long-lived), or of the argument for one of its
// parameters, whose base the caller knows (s.lifecycle.Context() on the server's field).
func (r *Resolver) returnedField(ro ReturnedOrigin, call *ssa.Call, args []ssa.Value) Set {
	o := Origin{Kind: Field, Desc: ro.Desc, Via: call, Pos: call.Pos(), Deadline: ro.Deadline, Opaque: ro.Opaque}
	if ro.Param < 0 {
		o.FieldBase = GlobalBase
		return Set{o}
	}
	if ro.Param >= len(args) {
		return unknown
	}
	o.FieldBase, o.baseParam = r.baseOf(args[ro.Param])
	return Set{o}
}

// fromReturned returns the origins of result idx of call, a call of a function of another
// package whose Returned fact is f.
func (r *Resolver) fromReturned(f *Returned, call *ssa.Call, idx int) Set {
	return r.fromReturnedArgs(f, call, call.Common().Args, idx)
}

// fromReturnedArgs is fromReturned with the values passed for the function's parameters,
// receiver first (for an interface call, the receiver and its arguments).
func (r *Resolver) fromReturnedArgs(f *Returned, call *ssa.Call, args []ssa.Value, idx int) Set {
	if idx >= len(f.Results) || f.Results[idx] == nil {
		return unknown
	}
	var sets []Set
	for _, ro := range f.Results[idx] {
		switch ro.Kind {
		case Param:
			if ro.Param < 0 || ro.Param >= len(args) {
				sets = append(sets, unknown)
				continue
			}
			sub := r.of(args[ro.Param])
			if ro.Deadline {
				sub = withDeadline(sub)
			}
			if ro.Opaque {
				sub = opaque(sub)
			}
			sets = append(sets, sub)
		case Root, Detached, Global:
			sets = append(sets, Set{{Kind: ro.Kind, Desc: ro.Desc, Via: call, Pos: call.Pos(), Deadline: ro.Deadline, Opaque: ro.Opaque}})
		case Field:
			sets = append(sets, r.returnedField(ro, call, args))
		default:
			sets = append(sets, unknown)
		}
	}
	return optionalDeadline(union(sets...), f.Given-1, f.Chosen, args)
}
