package typesutil

import "go/types"

// ClientShape reports whether sig is the method signature of a generated client, and
// whether it starts a stream.
//
// grpc-go: Method(ctx, [in *Req,] opts ...grpc.CallOption) (R, error), unary when R is a
// pointer to a message, streaming when R implements grpc.ClientStream.
// connect-go: Method(ctx, *connect.Request[Req]) (*connect.Response[Res], error) is unary;
// results of *connect.ServerStreamForClient, *ClientStreamForClient or *BidiStreamForClient
// are streams (this also matches connect.Client's CallUnary and Call*Stream).
func ClientShape(sig *types.Signature) (stream, ok bool) {
	params, results := sig.Params(), sig.Results()
	if sig.Recv() == nil || params.Len() == 0 || !IsContext(params.At(0).Type()) || results.Len() == 0 {
		return false, false
	}
	r0 := results.At(0).Type()
	if s, ok := connectShape(params, r0); ok {
		return s, true
	}
	if results.Len() != 2 || !TakesCallOptions(sig) || !IsError(results.At(1).Type()) {
		return false, false
	}
	last := params.At(params.Len() - 1).Type().(*types.Slice)
	if isClientStream(r0, last.Elem()) {
		return true, true
	}
	p, ok := types.Unalias(r0).(*types.Pointer)
	if !ok {
		return false, false
	}
	_, isStruct := p.Elem().Underlying().(*types.Struct)
	return false, isStruct
}

// connectShape recognises the connect-go client shapes by their result type r0.
func connectShape(params *types.Tuple, r0 types.Type) (stream, ok bool) {
	for _, name := range []string{"ServerStreamForClient", "ClientStreamForClient", "BidiStreamForClient"} {
		if IsPointerToNamed(r0, ConnectPath, name) {
			return true, true
		}
	}
	if IsPointerToNamed(r0, ConnectPath, "Response") && params.Len() == 2 &&
		IsPointerToNamed(params.At(1).Type(), ConnectPath, "Request") {
		return false, true
	}
	return false, false
}

// isClientStream reports whether t implements grpc.ClientStream, found in the package of
// callOption (grpc.CallOption).
func isClientStream(t, callOption types.Type) bool {
	n, ok := types.Unalias(callOption).(*types.Named)
	if !ok || n.Obj().Pkg() == nil {
		return false
	}
	obj := n.Obj().Pkg().Scope().Lookup("ClientStream")
	if obj == nil {
		return false
	}
	iface, ok := obj.Type().Underlying().(*types.Interface)
	return ok && types.Implements(t, iface)
}

// IsError reports whether t is the predeclared error interface.
func IsError(t types.Type) bool {
	return types.Identical(t, types.Universe.Lookup("error").Type())
}

// IsUnaryRPC reports whether fn makes one unary RPC: a generated grpc-go or connect-go unary
// client method, or Invoke of a grpc.ClientConnInterface or *grpc.ClientConn.
func IsUnaryRPC(fn *types.Func) bool {
	if fn == nil {
		return false
	}
	if IsMethod(fn, GRPCPath, "ClientConnInterface", "Invoke") || IsMethod(fn, GRPCPath, "ClientConn", "Invoke") {
		return true
	}
	stream, ok := ClientShape(fn.Signature())
	return ok && !stream
}
