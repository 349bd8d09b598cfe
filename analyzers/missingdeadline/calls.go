package missingdeadline

import (
	"go/types"
	"slices"

	"golang.org/x/tools/go/ssa"

	"github.com/deadlinelint/deadlinelint/internal/ctxorigin"
	"github.com/deadlinelint/deadlinelint/internal/report"
	"github.com/deadlinelint/deadlinelint/internal/typesutil"
	"github.com/deadlinelint/deadlinelint/internal/valueflow"
)

// clientCall is an RPC made by a call instruction.
type clientCall struct {
	name   string    // how messages name the API: "CatalogClient.GetItem"
	ctx    ssa.Value // the ctx argument
	conn   ssa.Value // the client or connection the call goes through, or nil
	stream bool      // a streaming RPC: exempt unless -missingdeadline.streams
}

// classify returns the RPC the call makes when its callee fn is a client-call API: a
// generated gRPC or connect-go client method, ClientConn.Invoke/NewStream, grpc.NewClientStream
// or an API listed in -missingdeadline.clientapis.
func classify(common *ssa.CallCommon, fn *types.Func, extra apiList) (clientCall, bool) {
	var stream bool
	switch {
	case isConnMethod(fn, "Invoke"):
	case isConnMethod(fn, "NewStream"), typesutil.IsFunc(fn, typesutil.GRPCPath, "NewClientStream"):
		stream = true
	case extra.has(fn):
	default:
		s, ok := typesutil.ClientShape(fn.Signature())
		if !ok {
			return clientCall{}, false
		}
		stream = s
	}
	ctx := argFor(common, fn, typesutil.CtxParamIndex(fn.Signature()))
	if ctx == nil {
		return clientCall{}, false
	}
	return clientCall{name: report.FuncName(fn), ctx: ctx, conn: receiver(common, fn), stream: stream}, true
}

// isConnMethod reports whether fn is the method name of grpc.ClientConnInterface or
// *grpc.ClientConn.
func isConnMethod(fn *types.Func, name string) bool {
	return typesutil.IsMethod(fn, typesutil.GRPCPath, "ClientConnInterface", name) ||
		typesutil.IsMethod(fn, typesutil.GRPCPath, "ClientConn", name)
}

// argFor returns the argument a call passes for declared parameter i of fn (receiver not
// counted), or nil. Static method calls and calls of a method expression put the receiver
// first in Args; invoke-mode calls and calls of a method value ($bound) leave it out.
func argFor(common *ssa.CallCommon, fn *types.Func, i int) ssa.Value {
	if i < 0 {
		return nil
	}
	if ctxorigin.ReceiverInArgs(common, fn) {
		i++
	}
	if i >= len(common.Args) {
		return nil
	}
	return common.Args[i]
}

// receiver returns the value a call of fn is made on, or nil for a function call.
func receiver(common *ssa.CallCommon, fn *types.Func) ssa.Value {
	switch {
	case common.IsInvoke():
		return common.Value
	case ctxorigin.ReceiverInArgs(common, fn):
		return common.Args[0]
	}
	if mc, ok := common.Value.(*ssa.MakeClosure); ok && len(mc.Bindings) == 1 {
		if fn, ok := mc.Fn.(*ssa.Function); ok && fn.Synthetic != "" {
			return mc.Bindings[0] // a method value: the bound receiver
		}
	}
	return nil
}

// perAttemptTimeouts lists the call options that give every attempt of a call a deadline of its
// own: go-grpc-middleware's retry WithPerRetryTimeout (v1 and v2).
var perAttemptTimeouts = [][2]string{
	{"github.com/grpc-ecosystem/go-grpc-middleware/retry", "WithPerRetryTimeout"},
	{"github.com/grpc-ecosystem/go-grpc-middleware/v2/interceptors/retry", "WithPerRetryTimeout"},
}

// boundedByOption reports whether a client call is given, among its ...grpc.CallOption
// arguments written at the call, an option that bounds each attempt with a deadline.
func boundedByOption(common *ssa.CallCommon) bool {
	if len(common.Args) == 0 {
		return false
	}
	opts, _ := valueflow.LocalElements(common.Args[len(common.Args)-1])
	return slices.ContainsFunc(opts, isPerAttemptTimeout)
}

// isPerAttemptTimeout reports whether v is the result of a perAttemptTimeouts option.
func isPerAttemptTimeout(v ssa.Value) bool {
	if mi, ok := v.(*ssa.MakeInterface); ok {
		v = mi.X
	}
	call, ok := v.(*ssa.Call)
	if !ok || call.Common().StaticCallee() == nil {
		return false
	}
	fn, _ := call.Common().StaticCallee().Object().(*types.Func)
	for _, o := range perAttemptTimeouts {
		if fn != nil && typesutil.IsFunc(fn, o[0], o[1]) {
			return true
		}
	}
	return false
}
