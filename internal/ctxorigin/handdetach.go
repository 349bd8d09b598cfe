package ctxorigin

import (
	"go/ast"
	"go/types"
	"slices"
	"strings"

	"golang.org/x/tools/go/ssa"

	"github.com/deadlinelint/deadlinelint/internal/directive"
	"github.com/deadlinelint/deadlinelint/internal/typesutil"
)

// HandDetached reports whether the root context call makes is the result of a documented
// helper that detaches the ctx it is given by hand: a declared function returning a ctx, whose
// ctx parameters it only reads values from (metadata.FromIncomingContext, peer.FromContext,
// ctx.Value) and whose root it only wraps in context.WithValue and returns —
//
//	// ConvertGRPCContext turns the request's ctx into the service's own.
//	func ConvertGRPCContext(ctx context.Context) context.Context {
//		md, _ := metadata.FromIncomingContext(ctx)
//		return context.WithValue(context.Background(), headerKey{}, md)
//	}
//
// context.WithoutCancel written out: the values kept, the cancellation dropped on purpose, and
// the doc comment the helper's reason, as it is for a helper built on WithoutCancel (the detach
// rule's "a helper whose job is the detach, documented, is a reason for all its callers"). Its
// callers get a detached ctx, not a root. The same root made inline in a handler, or in a helper
// without a doc comment (or one that is only a TODO), is a root.
//
// The values may be read by functions that only read them (TraceID(ctx): in the package by its
// body, in another by the fact imported answers), and the root may be wrapped by functions that
// only add values (metadata.NewIncomingContext, trace.ContextWithSpan; a function of the
// module whose body only wraps and returns its ctx, by its body here or its fact elsewhere),
// the request's ctx given to them only to read from.
func (r *Resolver) HandDetached(call *ssa.Call) bool {
	fn := call.Parent()
	if fn == nil || fn.Parent() != nil || !typesutil.ReturnsContext(fn.Signature) || !documented(fn) {
		return false
	}
	h := handDetach{r: r}
	read := false
	for _, p := range fn.Params {
		if !typesutil.IsContext(p.Type()) {
			continue
		}
		if !h.onlyReadFrom(p, 0) {
			return false
		}
		read = true
	}
	return read && h.onlyWrappedAndReturned(call, map[ssa.Value]bool{}, 0)
}

// handDetach answers HandDetached's questions about the functions a helper calls.
type handDetach struct{ r *Resolver }

// maxHandDepth bounds how deep into the package's own readers and wrappers HandDetached looks.
const maxHandDepth = 3

// valueWrappers are library functions that return their ctx argument (the first) with values
// added, and nothing else: the root they wrap stays a root. Outgoing metadata is not among
// them (outgoingMetadata): a fresh root carrying it is made for an RPC the request waits on
// (forwarding the caller's headers downstream with metadata.NewOutgoingContext(
// context.Background(), md)), where losing the deadline is the bug, not a detach.
var valueWrappers = []reader{
	{"context", "", "WithValue"},
	{typesutil.MetadataPath, "", "NewIncomingContext"},
	{"go.opentelemetry.io/otel/trace", "", "ContextWithSpan"},
	{"go.opentelemetry.io/otel/trace", "", "ContextWithSpanContext"},
	{"go.opentelemetry.io/otel/trace", "", "ContextWithRemoteSpanContext"},
	{"go.opentelemetry.io/otel/baggage", "", "ContextWithBaggage"},
}

// outgoingMetadata are the functions that attach metadata to a ctx for an outgoing RPC: never
// a detach's wrapper, whatever their body (grpc analysed as the user's own code, vendored).
var outgoingMetadata = []reader{
	{typesutil.MetadataPath, "", "NewOutgoingContext"},
	{typesutil.MetadataPath, "", "AppendToOutgoingContext"},
}

// documented reports whether the declared function fn has a doc comment that says something:
// not empty, not a note of unfinished work (TODO, FIXME, XXX).
func documented(fn *ssa.Function) bool {
	decl, ok := fn.Syntax().(*ast.FuncDecl)
	if !ok || decl.Doc == nil {
		return false
	}
	text := strings.TrimSpace(decl.Doc.Text())
	return text != "" && !directive.Unfinished(text)
}

// onlyReadFrom reports whether the ctx parameter p is used, and only to read values from: its
// Value method, a function that only reads from its ctx (IsReader), or a function that only
// reads from the parameter it is given p as (readsOnly).
func (h handDetach) onlyReadFrom(p *ssa.Parameter, depth int) bool {
	refs := p.Referrers()
	if refs == nil {
		return false
	}
	used := false
	for _, ref := range *refs {
		switch ref := ref.(type) {
		case *ssa.DebugRef:
		case *ssa.Call:
			common := ref.Common()
			if common.IsInvoke() {
				if common.Value != p || common.Method.Name() != "Value" {
					return false
				}
			} else if callee := Callee(common); !IsReader(callee) && !h.readsOnly(common, p, depth) {
				return false
			}
			used = true
		default:
			return false
		}
	}
	return used
}

// readsOnly reports whether the static call common, given the ctx v, only reads values from
// the parameter v is passed as: a function of the package whose body does (onlyReadFrom), or
// one of another package whose fact says so (Resolver.ReadsParam).
func (h handDetach) readsOnly(common *ssa.CallCommon, v ssa.Value, depth int) bool {
	fn, ok := common.Value.(*ssa.Function)
	k := onlyArg(common, v)
	if !ok || k < 0 {
		return false
	}
	if body := Body(fn); body != nil && len(body.Params) == len(common.Args) {
		return depth < maxHandDepth && h.onlyReadFrom(body.Params[k], depth+1)
	}
	obj, isFunc := calleeObject(fn).(*types.Func)
	return isFunc && h.r.ReadsParam != nil && h.r.ReadsParam(obj, k)
}

// onlyWrappedAndReturned reports whether every use of the ctx v is a return, a phi, or a call
// that only adds values to it (wraps) whose result is used so in turn.
func (h handDetach) onlyWrappedAndReturned(v ssa.Value, seen map[ssa.Value]bool, depth int) bool {
	if seen[v] {
		return true
	}
	seen[v] = true
	refs := v.Referrers()
	if refs == nil {
		return false
	}
	returned := false
	for _, ref := range *refs {
		switch ref := ref.(type) {
		case *ssa.DebugRef:
		case *ssa.Return:
			returned = true
		case *ssa.Phi:
			if !h.onlyWrappedAndReturned(ref, seen, depth) {
				return false
			}
			returned = true
		case *ssa.Call:
			if !h.wraps(ref, v, depth) || !h.onlyWrappedAndReturned(ref, seen, depth) {
				return false
			}
			returned = true
		default:
			return false
		}
	}
	return returned
}

// wraps reports whether call returns its argument v with values added and nothing else: a
// library value wrapper given v first (valueWrappers); a function of the package whose
// parameter v is passed as is only wrapped and returned, its other ctx parameters only read
// from; or one of another package whose facts say the same (WrapsParam, ReadsParam).
func (h handDetach) wraps(call *ssa.Call, v ssa.Value, depth int) bool {
	common := call.Common()
	callee := Callee(common)
	if matches(callee, outgoingMetadata) {
		return false
	}
	if matches(callee, valueWrappers) {
		return onlyArg(common, v) == 0
	}
	fn, ok := common.Value.(*ssa.Function)
	k := onlyArg(common, v)
	if !ok || k < 0 || !typesutil.ReturnsContext(common.Signature()) {
		return false
	}
	if _, tuple := call.Type().(*types.Tuple); tuple {
		return false
	}
	if body := Body(fn); body != nil && len(body.Params) == len(common.Args) {
		if depth >= maxHandDepth {
			return false
		}
		for i, p := range body.Params {
			if i != k && typesutil.IsContext(p.Type()) && !h.onlyReadFrom(p, depth+1) {
				return false
			}
		}
		return h.onlyWrappedAndReturned(body.Params[k], map[ssa.Value]bool{}, depth+1)
	}
	obj, isFunc := calleeObject(fn).(*types.Func)
	if !isFunc || h.r.WrapsParam == nil || h.r.ReadsParam == nil || !h.r.WrapsParam(obj, k) {
		return false
	}
	for i, a := range common.Args {
		if i != k && typesutil.IsContext(a.Type()) && !h.r.ReadsParam(obj, i) {
			return false
		}
	}
	return true
}

// Wraps reports whether call returns its argument v with values added and nothing else done
// with v: context.WithValue or a library value wrapper given v first, or a function of the
// module that only wraps v and returns it and only reads its other ctx parameters (by its body
// here, by its facts elsewhere).
func (r *Resolver) Wraps(call *ssa.Call, v ssa.Value) bool { return handDetach{r: r}.wraps(call, v, 0) }

// OnlyWraps reports whether fn, a function with a body returning a ctx, only adds values to its
// ctx parameter k and returns it (WithValue, a library value wrapper, or such a function of the
// module), and only reads values from its other ctx parameters.
func (r *Resolver) OnlyWraps(fn *ssa.Function, k int) bool {
	h := handDetach{r: r}
	for i, p := range fn.Params {
		if i != k && typesutil.IsContext(p.Type()) && !h.onlyReadFrom(p, 0) {
			return false
		}
	}
	return h.onlyWrappedAndReturned(fn.Params[k], map[ssa.Value]bool{}, 0)
}

// onlyArg returns the index of v among the call's arguments when it is passed exactly once, or -1.
func onlyArg(common *ssa.CallCommon, v ssa.Value) int {
	k := slices.Index(common.Args, v)
	if k < 0 || slices.Index(common.Args[k+1:], v) >= 0 {
		return -1
	}
	return k
}
