package ctxorigin

import (
	"go/ast"
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
func HandDetached(call *ssa.Call) bool {
	fn := call.Parent()
	if fn == nil || fn.Parent() != nil || !typesutil.ReturnsContext(fn.Signature) || !documented(fn) {
		return false
	}
	read := false
	for _, p := range fn.Params {
		if !typesutil.IsContext(p.Type()) {
			continue
		}
		if !onlyReadFrom(p) {
			return false
		}
		read = true
	}
	return read && onlyWrappedAndReturned(call, map[ssa.Value]bool{})
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
// Value method, or a function that only reads from its ctx (IsReader).
func onlyReadFrom(p *ssa.Parameter) bool {
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
			} else if !IsReader(Callee(common)) {
				return false
			}
			used = true
		default:
			return false
		}
	}
	return used
}

// onlyWrappedAndReturned reports whether every use of the ctx v is a context.WithValue on it,
// whose result is used so in turn, a phi, or a return.
func onlyWrappedAndReturned(v ssa.Value, seen map[ssa.Value]bool) bool {
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
			if !onlyWrappedAndReturned(ref, seen) {
				return false
			}
			returned = true
		case *ssa.Call:
			args := ref.Common().Args
			if !typesutil.IsFunc(Callee(ref.Common()), "context", "WithValue") || len(args) == 0 || args[0] != v || !onlyWrappedAndReturned(ref, seen) {
				return false
			}
			returned = true
		default:
			return false
		}
	}
	return returned
}
