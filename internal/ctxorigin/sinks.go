package ctxorigin

import (
	"go/types"

	"golang.org/x/tools/go/ssa"

	"github.com/deadlinelint/deadlinelint/internal/typesutil"
)

// Sink is a call that hands a ctx to work: a call, go or defer statement with a
// context.Context argument, whose callee does not itself return a ctx (derivations such as
// context.WithTimeout are followed by the resolver, not reported as work) and is not a
// reader that only logs with or reads values out of its ctx (IsReader).
type Sink struct {
	Instr ssa.CallInstruction
	Ctx   ssa.Value   // the ctx argument
	Func  *types.Func // the declared callee (the interface method for invoke calls), or nil
}

// Sinks returns the sinks of fn, in instruction order.
func Sinks(fn *ssa.Function) []Sink {
	var out []Sink
	for _, b := range fn.Blocks {
		for _, instr := range b.Instrs {
			call, ok := instr.(ssa.CallInstruction)
			if !ok {
				continue
			}
			common := call.Common()
			arg := CtxArg(common)
			if arg == nil || typesutil.ReturnsContext(common.Signature()) {
				continue
			}
			if fn := Callee(common); !IsReader(fn) {
				out = append(out, Sink{Instr: call, Ctx: arg, Func: fn})
			}
		}
	}
	return out
}

// Callee returns the declared function a call invokes: the interface method for an invoke-mode
// call, the (generic origin of the) static callee otherwise, or nil for a dynamic call.
func Callee(common *ssa.CallCommon) *types.Func {
	if common.IsInvoke() {
		return common.Method
	}
	if fn := common.StaticCallee(); fn != nil {
		obj, _ := calleeObject(fn).(*types.Func)
		return obj
	}
	return nil
}

// ReceiverInArgs reports whether the call of the method fn passes its receiver as the first
// argument: a static method call, or a call of the thunk of a method expression such as
// pb.CatalogClient.GetItem(client, ctx, req) — not a call through a method value, whose
// receiver is bound.
func ReceiverInArgs(common *ssa.CallCommon, fn *types.Func) bool {
	return !common.IsInvoke() && fn.Signature().Recv() != nil && len(common.Args) == fn.Signature().Params().Len()+1
}

// WithLiterals returns fn and the function literals nested in it, at any depth.
func WithLiterals(fn *ssa.Function) []*ssa.Function {
	out := []*ssa.Function{fn}
	for i := 0; i < len(out); i++ {
		out = append(out, out[i].AnonFuncs...)
	}
	return out
}
