package ctxorigin

import (
	"go/token"
	"go/types"

	"golang.org/x/tools/go/ssa"

	"github.com/deadlinelint/deadlinelint/internal/scope"
	"github.com/deadlinelint/deadlinelint/internal/typesutil"
)

// A library's convenience API — Foo() { return FooContext(context.Background(), …) }, an
// exported function that takes no ctx and makes its one ctx-taking call with a root written in
// its arguments — is the library's decision, documented by its signature: the deadline its
// callers do not give it is theirs to give. Rules that report roots ask these two questions.

// NoCtxAPI returns the declared function fn is, or is nested in, when that is an exported
// function or method of an exported type that takes no ctx (nor a value that carries one, such
// as an HTTP handler's *http.Request, nor a test's handle), in code that is not a test.
func NoCtxAPI(fn *ssa.Function) (*types.Func, bool) {
	for fn.Parent() != nil {
		fn = fn.Parent()
	}
	obj, ok := fn.Object().(*types.Func)
	if !ok || !obj.Exported() || typesutil.GivenCtx(obj.Signature()) || scope.RunByTest(fn) {
		return nil, false
	}
	if recv := obj.Signature().Recv(); recv != nil {
		t := recv.Type()
		if p, ok := types.Unalias(t).(*types.Pointer); ok {
			t = p.Elem()
		}
		n, ok := types.Unalias(t).(*types.Named)
		if !ok || !n.Obj().Exported() {
			return nil, false
		}
	}
	return obj, true
}

// ConvenienceCall reports whether instr, whose call expression spans [pos, end), is the one
// ctx-taking call of its declared function (and the literals in it), given the root made by
// root written in its arguments, and made outside any loop: a convenience wrapper's shape. A
// loop that only handles the response (converting its items) leaves it one; a function that
// calls in a loop with a root of its own (a worker's loop, a job) decides the deadline itself.
func ConvenienceCall(instr ssa.CallInstruction, pos, end token.Pos, root *ssa.Call) bool {
	if !end.IsValid() || root.Pos() < pos || root.Pos() >= end {
		return false
	}
	decl := instr.Parent()
	for decl.Parent() != nil {
		decl = decl.Parent()
	}
	n := 0
	for _, f := range append([]*ssa.Function{decl}, decl.AnonFuncs...) {
		n += len(Sinks(f))
	}
	return n == 1 && !Looped(instr)
}

// Looped reports whether instr runs in a loop: its block lies on a cycle of its function's
// control flow, or it is in a function literal made on one.
func Looped(instr ssa.Instruction) bool {
	for instr != nil && instr.Block() != nil {
		if OnCycle(instr.Block(), nil) {
			return true
		}
		if instr.Parent().Parent() == nil {
			return false
		}
		instr = madeAt(instr.Parent())
	}
	return false
}

// AsksErr returns the ctx whose error a call asks for — ctx.Err() on a context.Context — or nil.
func AsksErr(common *ssa.CallCommon) ssa.Value {
	if common.IsInvoke() && common.Method.Name() == "Err" && typesutil.IsContext(common.Value.Type()) {
		return common.Value
	}
	return nil
}

// AsksDone returns the ctx a call asks whether it is done — ctx.Err() or ctx.Done(), on a
// context.Context or as a static call of a concrete ctx type's method — or nil.
func AsksDone(common *ssa.CallCommon) ssa.Value {
	if common.IsInvoke() {
		if typesutil.IsContext(common.Value.Type()) && (common.Method.Name() == "Err" || common.Method.Name() == "Done") {
			return common.Value
		}
		return nil
	}
	if fn := common.StaticCallee(); fn != nil && len(common.Args) > 0 && typesutil.IsContext(common.Args[0].Type()) &&
		(fn.Name() == "Err" || fn.Name() == "Done") && fn.Signature.Recv() != nil {
		return common.Args[0]
	}
	return nil
}

// OnCycle reports whether block b can be reached again from itself, through blocks that
// through accepts (nil: any block).
func OnCycle(b *ssa.BasicBlock, through func(*ssa.BasicBlock) bool) bool {
	seen := make(map[*ssa.BasicBlock]bool)
	queue := append([]*ssa.BasicBlock(nil), b.Succs...)
	for len(queue) > 0 {
		x := queue[0]
		queue = queue[1:]
		if x == b {
			return true
		}
		if !seen[x] && (through == nil || through(x)) {
			seen[x] = true
			queue = append(queue, x.Succs...)
		}
	}
	return false
}

// HasTwin reports whether the ctx-taking call instr of a convenience API is one the API's
// callers can make themselves, with a ctx of their own: its callee is exported
// (Foo() { return FooContext(context.Background()) }, or the RPC method of a client). An
// unexported helper is no variant they can call.
func HasTwin(instr ssa.CallInstruction) bool {
	fn := Callee(instr.Common())
	return fn != nil && fn.Exported()
}
