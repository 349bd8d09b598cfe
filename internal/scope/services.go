package scope

import (
	"go/types"
	"slices"
	"sync"

	"github.com/deadlinelint/deadlinelint/internal/typesutil"
)

// serviceInterfaces returns the server interfaces of the gRPC and connect-go services declared
// in pkg and in the packages it imports directly: the interface type of the second parameter of
// a registration function `func(grpc.ServiceRegistrar | *grpc.Server, I)` (what
// protoc-gen-go-grpc writes as RegisterXxxServer), and of the first parameter of
// `func(I, ...connect.HandlerOption) (string, http.Handler)` (protoc-gen-connect-go's
// NewXxxHandler). The shape of the registration function decides, never a name.
func serviceInterfaces(pkg *types.Package) []*types.Interface {
	var out []*types.Interface
	seen := make(map[*types.Interface]bool)
	for _, p := range append([]*types.Package{pkg}, pkg.Imports()...) {
		for _, iface := range registeredIn(p) {
			if !seen[iface] {
				seen[iface] = true
				out = append(out, iface)
			}
		}
	}
	return out
}

// registeredByPkg caches registeredIn per package: every package importing p asks again.
var registeredByPkg sync.Map // *types.Package -> []*types.Interface

// registeredIn returns the service interfaces registered by the functions declared in p, in
// the order of their names.
func registeredIn(p *types.Package) []*types.Interface {
	if v, ok := registeredByPkg.Load(p); ok {
		return v.([]*types.Interface)
	}
	var out []*types.Interface
	for _, name := range p.Scope().Names() {
		if fn, ok := p.Scope().Lookup(name).(*types.Func); ok {
			if iface := registeredInterface(fn.Signature()); iface != nil {
				out = append(out, iface)
			}
		}
	}
	v, _ := registeredByPkg.LoadOrStore(p, out)
	return v.([]*types.Interface)
}

// handlerMethods returns the methods of pkg that serve one of the service interfaces ifaces:
// for every named type of pkg that implements one (itself or through its pointer), the method
// each interface method selects — declared on that type, or promoted from a type of pkg it
// embeds, as when a large service spreads its handlers over embedded types. Methods promoted
// from other packages (the generated UnimplementedXxxServer) are not this package's code.
func handlerMethods(pkg *types.Package, ifaces []*types.Interface) map[*types.Func]bool {
	out := make(map[*types.Func]bool)
	if len(ifaces) == 0 {
		return out
	}
	for _, name := range pkg.Scope().Names() {
		tn, ok := pkg.Scope().Lookup(name).(*types.TypeName)
		if !ok || tn.IsAlias() || types.IsInterface(tn.Type()) {
			continue
		}
		for _, iface := range ifaces {
			t := typesutil.Implementing(tn.Type(), iface)
			if t == nil {
				continue
			}
			for i := 0; i < iface.NumMethods(); i++ {
				m := iface.Method(i)
				obj, _, _ := types.LookupFieldOrMethod(t, true, m.Pkg(), m.Name())
				if fn, ok := obj.(*types.Func); ok && m.Exported() && fn.Pkg() == pkg {
					out[fn] = true
				}
			}
		}
	}
	return out
}

// connectHandlers returns the exported methods of pkg's named types whose signature is a
// connect-go handler's: (ctx, *connect.Request[Req]) (*connect.Response[Res], error), and the
// stream shapes (ctx, *connect.ClientStream[Req]) (*connect.Response[Res], error),
// (ctx, *connect.Request[Req], *connect.ServerStream[Res]) error and
// (ctx, *connect.BidiStream[Req, Res]) error. protoc-gen-connect-go declares the handler
// interface in a package of its own (fooconnect), which the package serving it need not
// import when another registers it (main's fooconnect.NewFooServiceHandler(svc)); grpc-go's
// interface sits beside the messages every handler names. The stream shapes are a handler's
// only. The unary one is a client's too: a method with the signature of a method of an
// interface in sight (fooconnect's client, or the package's own) may be a client wrapper
// (Forward.Greet handing the call to a remote greeter), and only a type serving the whole
// handler interface is a handler then (handlerMethods).
func connectHandlers(pkg *types.Package) map[*types.Func]bool {
	out := make(map[*types.Func]bool)
	if findPackage(pkg, typesutil.ConnectPath) == nil {
		return out
	}
	var clients []*types.Signature
	for _, name := range pkg.Scope().Names() {
		tn, ok := pkg.Scope().Lookup(name).(*types.TypeName)
		if !ok || tn.IsAlias() || types.IsInterface(tn.Type()) {
			continue
		}
		mset := types.NewMethodSet(types.NewPointer(tn.Type()))
		for i := 0; i < mset.Len(); i++ {
			fn, ok := mset.At(i).Obj().(*types.Func)
			if !ok || !fn.Exported() || fn.Pkg() != pkg {
				continue
			}
			sig := fn.Signature()
			stream, ok := connectHandlerShape(sig)
			if !ok {
				continue
			}
			if !stream {
				if clients == nil {
					clients = interfaceMethods(pkg)
				}
				if holdsClient(tn.Type()) || slices.ContainsFunc(clients, func(c *types.Signature) bool { return sameShape(sig, c) }) {
					continue
				}
			}
			out[fn] = true
		}
	}
	return out
}

// holdsClient reports whether t is a struct with a field holding a connect-go client — a
// *connect.Client[Req, Res], or an interface with a method of a connect-go unary shape (a
// client interface from out of sight): a typed client built on it has a handler's methods.
func holdsClient(t types.Type) bool {
	st, ok := t.Underlying().(*types.Struct)
	if !ok {
		return false
	}
	for i := 0; i < st.NumFields(); i++ {
		ft := st.Field(i).Type()
		if typesutil.IsPointerToNamed(ft, typesutil.ConnectPath, "Client") {
			return true
		}
		if iface, ok := ft.Underlying().(*types.Interface); ok {
			for j := 0; j < iface.NumMethods(); j++ {
				if stream, ok := connectHandlerShape(iface.Method(j).Signature()); ok && !stream {
					return true
				}
			}
		}
	}
	return false
}

// interfaceMethods returns the signatures of the methods of the interfaces declared in pkg and
// in the packages it imports directly.
func interfaceMethods(pkg *types.Package) []*types.Signature {
	out := []*types.Signature{} // not nil: asked once
	for _, p := range append([]*types.Package{pkg}, pkg.Imports()...) {
		for _, name := range p.Scope().Names() {
			tn, ok := p.Scope().Lookup(name).(*types.TypeName)
			if !ok {
				continue
			}
			iface, ok := tn.Type().Underlying().(*types.Interface)
			if !ok {
				continue
			}
			for i := 0; i < iface.NumMethods(); i++ {
				sig := iface.Method(i).Signature()
				out = append(out, types.NewSignatureType(nil, nil, nil, sig.Params(), sig.Results(), sig.Variadic()))
			}
		}
	}
	return out
}

// connectHandlerShape reports whether sig is one of the connect-go handler shapes of
// connectHandlers, and whether it is a stream's.
func connectHandlerShape(sig *types.Signature) (stream, ok bool) {
	params, results := sig.Params(), sig.Results()
	if params.Len() < 2 || results.Len() == 0 || !typesutil.IsContext(params.At(0).Type()) ||
		!typesutil.IsError(results.At(results.Len()-1).Type()) {
		return false, false
	}
	is := func(t types.Type, name string) bool {
		return typesutil.IsPointerToNamed(t, typesutil.ConnectPath, name)
	}
	second := params.At(1).Type()
	switch {
	case params.Len() == 2 && results.Len() == 2 && is(results.At(0).Type(), "Response"):
		return is(second, "ClientStream"), is(second, "Request") || is(second, "ClientStream")
	case params.Len() == 3 && results.Len() == 1:
		return true, is(second, "Request") && is(params.At(2).Type(), "ServerStream")
	case params.Len() == 2 && results.Len() == 1:
		return true, is(second, "BidiStream")
	}
	return false, false
}

// registeredInterface returns the service interface registered by a function of signature sig,
// or nil when sig is not a gRPC or connect-go registration function.
func registeredInterface(sig *types.Signature) *types.Interface {
	params := sig.Params()
	switch {
	case params.Len() == 2 && isGRPCRegistrar(params.At(0).Type()):
		return namedInterface(params.At(1).Type())
	case params.Len() == 2 && sig.Variadic() && isConnectHandlerOptions(params.At(1).Type()) &&
		sig.Results().Len() == 2:
		return namedInterface(params.At(0).Type())
	}
	return nil
}

func isGRPCRegistrar(t types.Type) bool {
	return typesutil.IsNamed(t, typesutil.GRPCPath, "ServiceRegistrar") ||
		typesutil.IsPointerToNamed(t, typesutil.GRPCPath, "Server")
}

func isConnectHandlerOptions(t types.Type) bool {
	s, ok := t.(*types.Slice)
	return ok && typesutil.IsNamed(s.Elem(), typesutil.ConnectPath, "HandlerOption")
}

// namedInterface returns the underlying interface of a named interface type, or nil.
func namedInterface(t types.Type) *types.Interface {
	n, ok := types.Unalias(t).(*types.Named)
	if !ok {
		return nil
	}
	iface, _ := n.Underlying().(*types.Interface)
	return iface
}

// findPackage returns the package with the given path among pkg and its transitive imports.
func findPackage(pkg *types.Package, path string) *types.Package {
	seen := make(map[*types.Package]bool)
	var walk func(p *types.Package) *types.Package
	walk = func(p *types.Package) *types.Package {
		if seen[p] {
			return nil
		}
		seen[p] = true
		if p.Path() == path {
			return p
		}
		for _, imp := range p.Imports() {
			if found := walk(imp); found != nil {
				return found
			}
		}
		return nil
	}
	return walk(pkg)
}

// grpcTypes holds the grpc-go types that decide what a server-side function is.
type grpcTypes struct {
	serverStream     *types.Interface // grpc.ServerStream
	unaryInterceptor *types.Signature // grpc.UnaryServerInterceptor
	streamIntercept  *types.Signature // grpc.StreamServerInterceptor
}

func lookupGRPC(pkg *types.Package) *grpcTypes {
	grpc := findPackage(pkg, typesutil.GRPCPath)
	if grpc == nil {
		return nil
	}
	g := &grpcTypes{}
	if obj, ok := grpc.Scope().Lookup("ServerStream").(*types.TypeName); ok {
		g.serverStream, _ = obj.Type().Underlying().(*types.Interface)
	}
	if obj, ok := grpc.Scope().Lookup("UnaryServerInterceptor").(*types.TypeName); ok {
		g.unaryInterceptor, _ = obj.Type().Underlying().(*types.Signature)
	}
	if obj, ok := grpc.Scope().Lookup("StreamServerInterceptor").(*types.TypeName); ok {
		g.streamIntercept, _ = obj.Type().Underlying().(*types.Signature)
	}
	return g
}

// isServerStream reports whether t implements grpc.ServerStream.
func (g *grpcTypes) isServerStream(t types.Type) bool {
	return g != nil && g.serverStream != nil && types.Implements(t, g.serverStream)
}

// sameShape reports whether sig, ignoring its receiver, is identical to want.
func sameShape(sig, want *types.Signature) bool {
	if want == nil {
		return false
	}
	plain := types.NewSignatureType(nil, nil, nil, sig.Params(), sig.Results(), sig.Variadic())
	return types.Identical(plain, want)
}

// Served returns the gRPC and connect-go service interfaces that a type of pkg serves: those
// registered in pkg or a package it imports directly (serviceInterfaces) that one of pkg's
// named types implements.
func Served(pkg *types.Package) []*types.Interface {
	var out []*types.Interface
	for _, iface := range serviceInterfaces(pkg) {
		if len(handlerMethods(pkg, []*types.Interface{iface})) > 0 {
			out = append(out, iface)
		}
	}
	return out
}
