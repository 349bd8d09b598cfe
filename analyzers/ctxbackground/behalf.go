package ctxbackground

import (
	"go/token"
	"go/types"

	"golang.org/x/tools/go/ssa"

	"github.com/deadlinelint/deadlinelint/internal/callees"
	"github.com/deadlinelint/deadlinelint/internal/ctxorigin"
	"github.com/deadlinelint/deadlinelint/internal/scope"
	"github.com/deadlinelint/deadlinelint/internal/typesutil"
	"github.com/deadlinelint/deadlinelint/internal/valueflow"
)

// What a transitive report claims — "this handler's deadline is lost in that helper" — is true
// only where the helper's work is done for this request. These predicates draw the line: the
// chain from a request scope to a root stops at work with a lifetime of its own (a goroutine a
// callee starts), at cleanup (a deferred call), at one-time initialisation, and at
// interface calls one of whose implementations may pass the caller's ctx on.

// onBehalf reports whether the call instruction, in fn (not a request scope), runs as part of
// the call to fn: not on a goroutine fn starts (its lifetime is fn's business: shard
// acquisition, prefetch workers, fan-out shared by many requests), not deferred (cleanup), and
// not in a literal run by sync.Once, nor only on the first use of shared state (an idempotent
// Open, a connection built once and kept: initialisation shared by every later request), not
// only once the ctx is done (killing the caller's query after it gave up), and not only once
// the function has failed (releasing what it acquired before it returns the error).
func onBehalf(instr ssa.CallInstruction) bool {
	switch instr.(type) {
	case *ssa.Go, *ssa.Defer:
		return false
	}
	return !ctxorigin.InOnceFunc(instr.Parent()) && !ctxorigin.AfterDone(instr) && !ctxorigin.FirstUse(instr) &&
		!ctxorigin.OnFailure(instr)
}

// dynamic reports whether instr calls a function value loaded from somewhere the analysis
// cannot follow (a pool's factory in a struct field): what it does with the root it is given is
// out of sight, and a call whose targets are not known stays silent. A callback parameter is
// not dynamic: the caller hands it in, in sight (retry.Do(ctx, func(ctx) …)).
func dynamic(instr ssa.CallInstruction) bool {
	common := instr.Common()
	if common.IsInvoke() || common.StaticCallee() != nil {
		return false
	}
	switch v := common.Value.(type) {
	case *ssa.Parameter, *ssa.FreeVar:
		return false
	case *ssa.UnOp: // a load: of a spilled parameter or captured local, or of a field
		switch v.X.(type) {
		case *ssa.Alloc, *ssa.FreeVar:
			return false
		}
	}
	return true
}

// boundedRoot reports whether the root origin o is given a deadline before it is used: a fresh
// budget, which in deferred cleanup is the idiom.
func boundedRoot(o ctxorigin.Origin) bool { return o.Deadline }

// usesOwnCtxBeside reports whether fn — the function the bounded root made by root is in, or
// the declared function enclosing it — hands its own ctx parameter to other work than the root's,
// or lent the caller's values to the ctx the work runs on, sinkCtx (lentOnTheWay). Its author had
// the caller's ctx in hand and gave this work a fresh budget instead, on purpose: a rollback that
// must run when the caller's budget is spent, a fallback after the caller gave up, a shadow run
// that keeps the caller's trace. A function that never works with the ctx it takes — only logs
// or counts with it, which does nothing with its deadline — or picks the root instead of its ctx
// for the same work (base := ctx; if long { base = context.Background() }), is not so.
func (d *dropper) usesOwnCtxBeside(fn *ssa.Function, root *ssa.Call, sinkCtx ssa.Value) bool {
	for fn.Parent() != nil {
		fn = fn.Parent()
	}
	for _, f := range ctxorigin.WithLiterals(fn) {
		for _, s := range ctxorigin.Sinks(f) {
			if s.Func != nil && d.res.CallDoesNoWork(s.Instr.Common()) {
				continue // a log line, a metric: no work that could have kept the caller's deadline
			}
			own, rooted := false, false
			for _, o := range d.info.Origins.Of(s.Ctx) {
				own = own || ownParam(o, fn)
				rooted = rooted || o.Call == root
			}
			if own && !rooted {
				return true
			}
		}
	}
	return d.lentOnTheWay(sinkCtx, root, fn, 0)
}

// ownParam reports whether the origin o is a ctx parameter of fn.
func ownParam(o ctxorigin.Origin, fn *ssa.Function) bool {
	return o.Kind == ctxorigin.Param && o.Param.Parent() == fn
}

// lentOnTheWay reports whether the ctx v, made from root, was given a value read from fn's own
// ctx on every way from root to v: a call that makes a ctx from the root's ctx and fn's ctx or
// such a value (trace.ContextWithSpan(fresh, trace.SpanFromContext(ctx)), context.WithValue(fresh,
// k, tenant(ctx))). The caller's values put back on a fresh budget chosen for this work are a
// detach decided and bounded, as context.WithTimeout(context.WithoutCancel(ctx), d) is since Go
// 1.21 — a value the work would carry anyway if it derived from ctx. A ctx that may be fn's own
// on the way (a branch picking the root or ctx) lends nothing.
func (d *dropper) lentOnTheWay(v ssa.Value, root *ssa.Call, fn *ssa.Function, depth int) bool {
	if depth > 12 {
		return false
	}
	all := func(vs []ssa.Value) bool { // every way that may be the root's is lent
		any := false
		for _, x := range vs {
			if typesutil.IsContext(x.Type()) && !d.mayBeRooted(x, root) {
				continue // fn's own ctx on this way: nothing dropped
			}
			if !d.lentOnTheWay(x, root, fn, depth+1) {
				return false
			}
			any = true
		}
		return any
	}
	switch x := v.(type) {
	case *ssa.Extract:
		return d.lentOnTheWay(x.Tuple, root, fn, depth+1)
	case *ssa.Phi:
		return all(x.Edges)
	case *ssa.UnOp:
		return x.Op == token.MUL && d.lentOnTheWay(x.X, root, fn, depth+1)
	case *ssa.Alloc:
		return all(valueflow.LocalStores(x))
	case *ssa.FreeVar:
		return all(valueflow.Bindings(x))
	case *ssa.Call:
		if !makesCtx(x) {
			return false
		}
		var rooted []ssa.Value
		for _, a := range x.Call.Args {
			switch {
			case typesutil.IsContext(a.Type()) && d.mayBeRooted(a, root):
				rooted = append(rooted, a) // the root's ctx, or fn's on another way: followed
			case typesutil.IsContext(a.Type()) && d.mayBeOwn(a, fn):
				return d.hasRootedArg(x, root, fn) // CopyTraceContext(fresh, ctx)
			case !isTime(a.Type()) && d.readFromOwn(a, fn, 0):
				return d.hasRootedArg(x, root, fn)
			}
		}
		return all(rooted)
	}
	return false
}

// hasRootedArg reports whether a ctx argument of call is made from root, and never fn's own.
func (d *dropper) hasRootedArg(call *ssa.Call, root *ssa.Call, fn *ssa.Function) bool {
	for _, a := range call.Call.Args {
		if typesutil.IsContext(a.Type()) && d.rootedOnly(a, root, fn) {
			return true
		}
	}
	return false
}

// mayBeRooted reports whether the ctx v may come from root.
func (d *dropper) mayBeRooted(v ssa.Value, root *ssa.Call) bool {
	for _, o := range d.info.Origins.Of(v) {
		if o.Call == root {
			return true
		}
	}
	return false
}

// mayBeOwn reports whether the ctx v may be fn's own ctx parameter.
func (d *dropper) mayBeOwn(v ssa.Value, fn *ssa.Function) bool {
	for _, o := range d.info.Origins.Of(v) {
		if ownParam(o, fn) {
			return true
		}
	}
	return false
}

// rootedOnly reports whether the ctx v may come from root and never from fn's own ctx.
func (d *dropper) rootedOnly(v ssa.Value, root *ssa.Call, fn *ssa.Function) bool {
	return d.mayBeRooted(v, root) && !d.mayBeOwn(v, fn)
}

// makesCtx reports whether call returns a ctx, alone or first (tracer.Start's (ctx, span)).
func makesCtx(call *ssa.Call) bool {
	t := call.Type()
	if tup, ok := t.(*types.Tuple); ok {
		return tup.Len() > 0 && typesutil.IsContext(tup.At(0).Type())
	}
	return typesutil.IsContext(t)
}

// isTime reports whether t is time.Duration or time.Time: a budget or a deadline, not a value
// a ctx carries (WithTimeout(fresh, budgetFor(ctx)) lends nothing).
func isTime(t types.Type) bool {
	return typesutil.IsNamed(t, "time", "Duration") || typesutil.IsNamed(t, "time", "Time")
}

// readFromOwn reports whether v is the result of a call given fn's own ctx (a span, a tenant,
// a logger read out of it), through conversions, results, locals and variables a literal
// captures. Incoming gRPC metadata is not one: the outgoing call needs it copied whether or not
// its ctx derives from the caller's, so copying it decides nothing.
func (d *dropper) readFromOwn(v ssa.Value, fn *ssa.Function, depth int) bool {
	if depth > 8 {
		return false
	}
	switch x := v.(type) {
	case *ssa.Extract:
		return d.readFromOwn(x.Tuple, fn, depth+1)
	case *ssa.MakeInterface:
		return d.readFromOwn(x.X, fn, depth+1)
	case *ssa.ChangeType:
		return d.readFromOwn(x.X, fn, depth+1)
	case *ssa.Convert:
		return d.readFromOwn(x.X, fn, depth+1)
	case *ssa.Call:
		if typesutil.IsFunc(ctxorigin.Callee(&x.Call), "google.golang.org/grpc/metadata", "FromIncomingContext") {
			return false
		}
		for _, a := range x.Call.Args {
			if typesutil.IsContext(a.Type()) && d.mayBeOwn(a, fn) {
				return true
			}
		}
	case *ssa.UnOp:
		if x.Op == token.MUL {
			return d.readFromOwn(x.X, fn, depth+1)
		}
	case *ssa.FreeVar:
		for _, b := range valueflow.Bindings(x) {
			if d.readFromOwn(b, fn, depth+1) {
				return true
			}
		}
	case *ssa.Alloc:
		for _, st := range valueflow.LocalStores(x) {
			if d.readFromOwn(st, fn, depth+1) {
				return true
			}
		}
	}
	return false
}

// ignoresCtx reports whether the implementation t does nothing with the ctx it takes (an
// in-memory store behind an interface, which neither keeps nor loses a deadline), as ctxssa
// tells from its body or its package's fact. An implementation out of sight may pass its ctx on.
func (d *dropper) ignoresCtx(t callees.Target) bool {
	return t.Obj != nil && d.res.IgnoresCtx(t.Obj)
}

// runsForRequest reports whether fn, a request scope, runs as part of its request: not a
// literal that the handler (or a literal of it) only sends on a channel or hands to functions
// that do not run it as part of the call (callees.Resolver.RunsLater) — a job for a worker
// pool, a timer's callback, a goroutine a helper starts, a hook kept for later —, nor one made
// inside such a literal. A literal called, merged, stored or returned may run in place and is
// judged with the handler, and so is one the scope starts with a go statement or defers (a
// goroutine that must outlive the handler, cleanup as it returns). The work of a literal handed
// over is done after the request, as that of a method value handed over the same way. A scope
// of its own (an interceptor a constructor returns) is not a literal of one.
func (d *dropper) runsForRequest(fn *ssa.Function) bool {
	for sc := d.info.Scopes.Of(fn); sc != nil && sc.Kind == scope.Closure; sc = sc.Parent {
		if ctxorigin.Deferred(sc.Func) || ctxorigin.Started(sc.Func) {
			return true
		}
		if d.runsLater(sc.Func) {
			return false
		}
	}
	return true
}

// runsLater reports whether the function literal anon is only handed over to run after the
// function that makes it (callees.Resolver.RunsLater).
func (d *dropper) runsLater(anon *ssa.Function) bool {
	return d.targets.RunsLater(literalValue(anon))
}

// isClientAdapter reports whether t, an implementation of an interface a server calls, wraps
// a client of a service the package itself serves: the service's own client side (a plugin's
// client stub, behind the same interface as the plugin's local implementations), whose methods
// forward to the remote server — not work the server does for its caller. A generated client
// is of a served service when it has a client method for every RPC of the service's server
// interface; an adapter of a downstream service's client is work like any other. One over a
// bare connection does not say which service it calls: it counts as the service's own.
func (d *dropper) isClientAdapter(t callees.Target) bool {
	if t.Obj == nil {
		return false
	}
	recv := t.Obj.Signature().Recv()
	if recv == nil {
		return false
	}
	typ := recv.Type()
	if p, ok := types.Unalias(typ).(*types.Pointer); ok {
		typ = p.Elem()
	}
	st, ok := typ.Underlying().(*types.Struct)
	if !ok {
		return false
	}
	if !d.servedSet {
		d.served, d.servedSet = scope.Served(d.pass.Pkg), true
	}
	for i := 0; i < st.NumFields(); i++ {
		ft := st.Field(i).Type()
		if isConn(ft) || isGRPCClient(ft) && d.clientOfServed(ft) {
			return true // a bare connection does not say which service it calls: stay silent
		}
	}
	return false
}

// clientOfServed reports whether the client type t has a client method (one taking
// ...grpc.CallOption) of the same name as every RPC of one of the services the package serves.
func (d *dropper) clientOfServed(t types.Type) bool {
	ms := types.NewMethodSet(t)
	has := func(name string) bool {
		for i := 0; i < ms.Len(); i++ {
			if sig, ok := ms.At(i).Type().(*types.Signature); ok && ms.At(i).Obj().Name() == name && typesutil.TakesCallOptions(sig) {
				return true
			}
		}
		return false
	}
	for _, iface := range d.served {
		rpcs, all := 0, true
		for i := 0; i < iface.NumMethods(); i++ {
			if m := iface.Method(i); m.Exported() {
				rpcs++
				all = all && has(m.Name())
			}
		}
		if rpcs > 0 && all {
			return true
		}
	}
	return false
}

// isConn reports whether t is a bare gRPC connection: grpc.ClientConnInterface or
// *grpc.ClientConn.
func isConn(t types.Type) bool {
	return typesutil.IsNamed(t, typesutil.GRPCPath, "ClientConnInterface") || typesutil.IsPointerToNamed(t, typesutil.GRPCPath, "ClientConn")
}

// isGRPCClient reports whether t is a gRPC client: a type with a method whose last parameter
// is ...grpc.CallOption (a generated client).
func isGRPCClient(t types.Type) bool {
	ms := types.NewMethodSet(t)
	for i := 0; i < ms.Len(); i++ {
		if sig, ok := ms.At(i).Type().(*types.Signature); ok && typesutil.TakesCallOptions(sig) {
			return true
		}
	}
	return false
}
