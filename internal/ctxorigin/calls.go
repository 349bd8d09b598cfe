package ctxorigin

import (
	"go/constant"
	"go/token"
	"go/types"
	"slices"

	"golang.org/x/tools/go/ssa"

	"github.com/deadlinelint/deadlinelint/internal/typesutil"
)

// callResult returns the origins of result idx of call.
func (r *Resolver) callResult(call *ssa.Call, idx int) Set {
	common := call.Common()
	if results := common.Signature().Results(); idx >= results.Len() || !typesutil.IsContext(results.At(idx).Type()) {
		return unknown
	}
	if common.IsInvoke() {
		return r.invokeResult(call, idx)
	}
	callee := common.StaticCallee()
	if callee == nil {
		return unknown // a call through a func value we cannot resolve
	}
	if k := lookup(calleeObject(callee)); k != nil {
		return r.known(k, call, idx)
	}
	if body := Body(callee); body != nil {
		return r.fromSummary(body, call, idx)
	}
	if obj, ok := calleeObject(callee).(*types.Func); ok && r.imported != nil {
		if f := r.imported(obj); f != nil {
			return r.fromReturned(f, call, idx)
		}
	}
	return r.unseen(common)
}

// unseen returns the origins of a ctx returned by a function whose body is not visible: a
// deriver of its ctx argument we cannot see into (where from, not what it adds), or unknown
// when it takes no ctx.
func (r *Resolver) unseen(common *ssa.CallCommon) Set {
	if arg := CtxArg(common); arg != nil {
		return opaque(r.of(arg))
	}
	return unknown
}

// invokeResult handles an interface method call: Context() on the request's server stream
// returns the request ctx; a method of the knowledge table (an OpenTelemetry Tracer's Start)
// has its known effect; any other method taking a ctx is an opaque deriver of it.
func (r *Resolver) invokeResult(call *ssa.Call, idx int) Set {
	common := call.Common()
	if common.Method.Name() == "Context" && r.isRequestStream(common.Value) {
		return Set{{Kind: Request, Pos: common.Pos()}}
	}
	if k := lookup(common.Method); k != nil {
		return r.known(k, call, idx)
	}
	if s := r.viaImplementations(call, idx); s != nil {
		return s
	}
	return r.unseen(common)
}

// viaImplementations returns the origins of result idx of an interface call when every
// implementation the package can see returns a ctx that outlives any request — a field of its
// receiver, where the receiver is the server's (s.life.Context(), with the server's field
// holding its lifecycle manager), or a package-level one — known from its body or its
// Returned fact. Otherwise nil: what an implementation returns may be the caller's ctx, and
// one out of sight may return anything.
func (r *Resolver) viaImplementations(call *ssa.Call, idx int) Set {
	if r.Implementations == nil {
		return nil
	}
	common := call.Common()
	impls := r.Implementations(common)
	if len(impls) == 0 {
		return nil
	}
	args := append([]ssa.Value{common.Value}, common.Args...)
	var sets []Set
	for _, impl := range impls {
		var s Set
		switch {
		case impl.Body != nil:
			s = r.fromSummaryArgs(impl.Body, call, args, idx)
		case r.imported != nil && r.imported(impl.Obj) != nil:
			s = r.fromReturnedArgs(r.imported(impl.Obj), call, args, idx)
		default:
			return nil
		}
		if !outlives(s) {
			return nil
		}
		sets = append(sets, s)
	}
	return union(sets...)
}

// outlives reports whether every origin in s is a ctx that outlives requests: a field of the
// server or of a package-level variable, or a package-level variable.
func outlives(s Set) bool {
	for _, o := range s {
		switch {
		case o.Kind == Global:
		case o.Kind == Field && o.FieldBase != OtherBase:
		default:
			return false
		}
	}
	return len(s) > 0
}

// isRequestStream reports whether v is the server stream of a request scope, possibly
// converted or captured by a closure.
// IsRequestStream reports whether v is the server stream of a request scope: the handler's
// stream parameter, as it is, converted, or captured by a literal.
func (r *Resolver) IsRequestStream(v ssa.Value) bool { return r.isRequestStream(v) }

func (r *Resolver) isRequestStream(v ssa.Value) bool {
	switch v := v.(type) {
	case *ssa.Parameter:
		return r.scopes.IsRequestStream(v)
	case *ssa.ChangeInterface:
		return r.isRequestStream(v.X)
	case *ssa.MakeInterface:
		return r.isRequestStream(v.X)
	case *ssa.ChangeType:
		return r.isRequestStream(v.X)
	case *ssa.FreeVar:
		all, any := true, false
		r.viaBindings(v, func(b ssa.Value) Set {
			any = true
			all = all && r.isRequestStream(b)
			return nil
		})
		return any && all
	case *ssa.UnOp:
		if v.Op == token.MUL {
			return r.isRequestStreamVar(v.X)
		}
	}
	return false
}

// isRequestStreamVar reports whether addr is a variable that only ever holds the server
// stream of a request scope: the variable a literal capturing the stream shares with its
// function, assigned nowhere but there, or that variable as the literal sees it.
func (r *Resolver) isRequestStreamVar(addr ssa.Value) bool {
	switch a := addr.(type) {
	case *ssa.Alloc:
		return OnlyHolds(a, r.isRequestStream)
	case *ssa.FreeVar:
		all, any := true, false
		r.viaBindings(a, func(b ssa.Value) Set {
			any = true
			all = all && r.isRequestStreamVar(b)
			return nil
		})
		return any && all
	}
	return false
}

// calleeObject returns the declared function of callee, seeing through generic instances.
func calleeObject(callee *ssa.Function) types.Object {
	if o := callee.Origin(); o != nil {
		callee = o
	}
	return callee.Object()
}

// Body returns the function whose SSA body describes callee (the generic origin of an
// instance), or nil when the body is not available (another package).
func Body(callee *ssa.Function) *ssa.Function {
	if callee.Blocks != nil {
		return callee
	}
	if o := callee.Origin(); o != nil && o.Blocks != nil {
		return o
	}
	return nil
}

// known applies a knowledge-table entry.
func (r *Resolver) known(k *api, call *ssa.Call, idx int) Set {
	if idx != k.result {
		return unknown
	}
	switch k.effect {
	case makesRoot:
		if r.HandDetached(call) {
			return Set{{Kind: Detached, Call: call, Pos: call.Pos()}}
		}
		return Set{{Kind: Root, Call: call, Pos: call.Pos()}}
	case detaches:
		return Set{{Kind: Detached, Call: call, Pos: call.Pos()}}
	}
	arg := CtxArg(call.Common())
	if arg == nil {
		return unknown
	}
	if k.effect == addsDeadline || TimedOut(call) {
		return withDeadline(r.of(arg))
	}
	parent := r.of(arg)
	if x := TiedTo(call); x != nil && allRoots(parent) {
		// A root made cancellable and cancelled when x is done: it lives as long as x.
		return r.of(x)
	}
	return parent
}

// allRoots reports whether every origin in s is a root context.
func allRoots(s Set) bool {
	for _, o := range s {
		if o.Kind != Root {
			return false
		}
	}
	return len(s) > 0
}

// fromSummary returns the origins of result idx of call, a call of fn, whose body is in the
// package: the origins of fn's returned values, with fn's parameters replaced by the call's
// arguments, and the contexts fn creates marked as coming Via this call.
func (r *Resolver) fromSummary(fn *ssa.Function, call *ssa.Call, idx int) Set {
	return r.fromSummaryArgs(fn, call, call.Common().Args, idx)
}

// fromSummaryArgs is fromSummary with the values passed for fn's parameters, receiver first:
// the call's arguments, or for an interface call the receiver and its arguments.
func (r *Resolver) fromSummaryArgs(fn *ssa.Function, call *ssa.Call, args []ssa.Value, idx int) Set {
	sum := r.summary(fn)
	if idx >= len(sum) || sum[idx] == nil {
		return unknown
	}
	var sets []Set
	for _, o := range sum[idx] {
		switch {
		case o.Kind == Param && o.Param.Parent() == fn:
			sub := r.argOrigins(fn, args, o.Param)
			if o.Deadline {
				sub = withDeadline(sub)
			}
			if o.Opaque {
				sub = opaque(sub)
			}
			sets = append(sets, sub)
		case o.Kind == Field && o.baseParam != nil && o.baseParam.Parent() == fn:
			if arg := argFor(fn, args, o.baseParam); arg != nil {
				o.FieldBase, o.baseParam = r.baseOf(arg)
			}
			sets = append(sets, Set{o})
		case o.Kind == Root || o.Kind == Detached:
			o.Via = call
			sets = append(sets, Set{o})
		default:
			sets = append(sets, Set{o})
		}
	}
	return optionalDeadline(union(sets...), DurationGiven(fn), r.durationChosen(fn), args)
}

func (r *Resolver) argOrigins(fn *ssa.Function, args []ssa.Value, p *ssa.Parameter) Set {
	if arg := argFor(fn, args, p); arg != nil {
		return r.of(arg)
	}
	return unknown
}

// argFor returns the value among args passed for parameter p of fn.
func argFor(fn *ssa.Function, args []ssa.Value, p *ssa.Parameter) ssa.Value {
	for i, q := range fn.Params {
		if q == p && i < len(args) {
			return args[i]
		}
	}
	return nil
}

// summary returns, per result of fn, the origins of the ctx values fn returns, in terms of
// fn's own parameters. Results that are not a ctx have a nil set.
func (r *Resolver) summary(fn *ssa.Function) []Set {
	if s, ok := r.summaries[fn]; ok {
		return s
	}
	if r.summing[fn] {
		return nil // recursion: the outer computation answers
	}
	r.summing[fn] = true
	defer delete(r.summing, fn)
	results := fn.Signature.Results()
	out := make([]Set, results.Len())
	for _, b := range fn.Blocks {
		ret, ok := b.Instrs[len(b.Instrs)-1].(*ssa.Return)
		if !ok {
			continue
		}
		for i, v := range ret.Results {
			if typesutil.IsContext(results.At(i).Type()) {
				out[i] = union(out[i], r.of(v))
			}
		}
	}
	r.summaries[fn] = out
	return out
}

// optionalDeadline returns set, the ctxs a helper returns, with its deadline-less origins
// counted as bounded when another has a deadline and the helper applies it when the duration
// its caller gives (parameter given, DurationGiven) is set — `if timeout > 0 { return
// context.WithTimeout(context.Background(), timeout) }; return context.Background()`, the
// helper form of a -timeout flag that defaults to none: none on the other path is the caller's
// decision. A caller passing a constant that is not positive for it chose none: set as it is.
// So is a helper whose duration is a package-level variable's (chosen, durationChosen): `if
// *timeout <= 0 { return context.WithCancel(context.Background()) }; return
// context.WithTimeout(context.Background(), *timeout)`, the user's -timeout flag.
func optionalDeadline(set Set, given int, chosen bool, args []ssa.Value) Set {
	if !chosen && (given < 0 || given >= len(args) || NotPositive(args[given])) ||
		!slices.ContainsFunc(set, func(o Origin) bool { return o.Deadline && !o.Opaque }) {
		return set
	}
	out := make(Set, len(set))
	for i, o := range set {
		if o.Kind != Unknown {
			o.Deadline = true
		}
		out[i] = o
	}
	return union(out)
}

// NotPositive reports whether v is a constant number that is zero or less: a duration of none.
func NotPositive(v ssa.Value) bool {
	k, ok := v.(*ssa.Const)
	return ok && k.Value != nil && k.Value.Kind() == constant.Int && constant.Sign(k.Value) <= 0
}

// DurationGiven returns the index among fn's parameters (the receiver first) of the one a
// time.Duration fn compares with a constant comes from — the parameter itself, or a field
// reached from it (opts.Timeout, c.timeout) — when fn computes a deadline from it too
// (DeadlineFrom); or -1.
func DurationGiven(fn *ssa.Function) int {
	for _, b := range fn.Blocks {
		if x := ComparedWithConst(b); x != nil && typesutil.IsNamed(x.Type(), "time", "Duration") {
			if p, ok := Stored(x).(*ssa.Parameter); ok && DeadlineFrom(fn, p) {
				return ParamIndex(fn, p)
			}
		}
	}
	return -1
}

// durationChosen reports whether fn compares a time.Duration loaded from a command-line flag
// (flagVar: *timeout) with a constant and computes a deadline from it (DeadlineFrom): the
// deadline is the user's choice, none when the flag is not set. A package setting of its own
// (var pollEvery = 5 * time.Second) is the package's choice.
func (r *Resolver) durationChosen(fn *ssa.Function) bool {
	for _, b := range fn.Blocks {
		if x := ComparedWithConst(b); x != nil && typesutil.IsNamed(x.Type(), "time", "Duration") {
			if g, ok := Stored(x).(*ssa.Global); ok && r.flagVar(g) && DeadlineFrom(fn, g) {
				return true
			}
		}
	}
	return false
}

// flagPackages are the packages that define command-line flags.
var flagPackages = []string{"flag", "github.com/spf13/pflag"}

// flagVar reports whether the package-level variable g is a command-line flag: set to what a
// function of the flag packages returns (var timeout = flag.Duration(…)), or handed to one
// (flag.DurationVar(&timeout, …), cmd.Flags().DurationVar(&timeout, …)), by the package's value
// flow (a Global has no referrers). Without one, or for a variable of another package, it is not
// known to be a flag.
func (r *Resolver) flagVar(g *ssa.Global) bool {
	if r.Flow == nil || g.Pkg != r.Flow.Package() {
		return false
	}
	return slices.ContainsFunc(r.Flow.StoredTo(g), flagCall) ||
		slices.ContainsFunc(r.Flow.HandedTo(g), func(c *ssa.Call) bool { return flagCall(c) })
}

// flagCall reports whether v is the result of a call of a function of the flag packages.
func flagCall(v ssa.Value) bool {
	call, ok := v.(*ssa.Call)
	if !ok {
		return false
	}
	fn := Callee(call.Common())
	return fn != nil && fn.Pkg() != nil && slices.Contains(flagPackages, fn.Pkg().Path())
}

// DeadlineFrom reports whether fn applies a deadline (context.WithTimeout, WithDeadline, their
// Cause forms) computed from src, a parameter or a package-level variable (a flag): a value
// loaded from it (Stored) is among the operands of the deadline's argument, to a small depth.
func DeadlineFrom(fn *ssa.Function, src ssa.Value) bool {
	for _, b := range fn.Blocks {
		for _, instr := range b.Instrs {
			call, ok := instr.(*ssa.Call)
			if !ok || len(call.Call.Args) < 2 {
				continue
			}
			if callee := Callee(call.Common()); callee != nil && IsDeadlineCall(callee) && computedFrom(call.Call.Args[1], src, 0) {
				return true
			}
		}
	}
	return false
}

// computedFrom reports whether v is, or is computed from, a value loaded from src.
func computedFrom(v, src ssa.Value, depth int) bool {
	if v == src || Stored(v) == src {
		return true
	}
	instr, ok := v.(ssa.Instruction)
	if !ok || depth > 6 {
		return false
	}
	for _, op := range instr.Operands(nil) {
		if *op != nil && computedFrom(*op, src, depth+1) {
			return true
		}
	}
	return false
}

// Stored returns what the value v is loaded from — through loads, struct fields and
// numeric conversions, the parameter or package-level variable at the bottom (opts.Timeout,
// *maxTime) — or nil.
func Stored(v ssa.Value) ssa.Value {
	for {
		switch x := v.(type) {
		case *ssa.Parameter, *ssa.Global:
			return x
		case *ssa.UnOp:
			if x.Op != token.MUL {
				return nil
			}
			v = x.X
		case *ssa.FieldAddr:
			v = x.X
		case *ssa.Field:
			v = x.X
		case *ssa.Convert:
			v = x.X
		default:
			return nil
		}
	}
}
