// Package typesutil holds the small type predicates every deadlinelint package needs: is this
// type context.Context, is this object the function pkg.Name, does this package depend on gRPC.
// Everything is decided by package path and object name, never by variable names.
package typesutil

import (
	"go/types"
	"strings"
)

// Import paths deadlinelint knows by type.
const (
	ContextPath  = "context"
	GRPCPath     = "google.golang.org/grpc"
	MetadataPath = "google.golang.org/grpc/metadata"
	ConnectPath  = "connectrpc.com/connect"
	ErrgroupPath = "golang.org/x/sync/errgroup"
)

// IsNamed reports whether t (after removing aliases and one pointer if ptr is allowed) is the
// named type pkgPath.name; generic instantiations match their origin.
func IsNamed(t types.Type, pkgPath, name string) bool {
	n, ok := types.Unalias(t).(*types.Named)
	if !ok {
		return false
	}
	obj := n.Origin().Obj()
	return obj.Name() == name && obj.Pkg() != nil && samePath(obj.Pkg().Path(), pkgPath)
}

// xnetContext is the pre-Go 1.7 home of package context. Its types are aliases of the
// standard library's, but its functions (Background, TODO, WithTimeout...) are its own
// wrappers: for every rule they are the same functions.
const xnetContext = "golang.org/x/net/context"

// samePath reports whether the package path got is want, counting golang.org/x/net/context as
// package context.
func samePath(got, want string) bool {
	return got == want || want == ContextPath && got == xnetContext
}

// IsPointerToNamed reports whether t is *pkgPath.name.
func IsPointerToNamed(t types.Type, pkgPath, name string) bool {
	p, ok := types.Unalias(t).(*types.Pointer)
	return ok && IsNamed(p.Elem(), pkgPath, name)
}

// IsContext reports whether t is context.Context.
func IsContext(t types.Type) bool {
	return t != nil && IsNamed(t, ContextPath, "Context")
}

// IsFunc reports whether obj is the package-level function pkgPath.name.
func IsFunc(obj types.Object, pkgPath, name string) bool {
	fn, ok := obj.(*types.Func)
	if !ok || fn == nil || fn.Pkg() == nil || fn.Name() != name || !samePath(fn.Pkg().Path(), pkgPath) {
		return false
	}
	return fn.Signature().Recv() == nil
}

// IsMethod reports whether obj is the method pkgPath.typeName.name (pointer or value receiver,
// interface method or concrete).
func IsMethod(obj types.Object, pkgPath, typeName, name string) bool {
	fn, ok := obj.(*types.Func)
	if !ok || fn == nil || fn.Name() != name {
		return false
	}
	recv := fn.Signature().Recv()
	if recv == nil {
		return false
	}
	t := recv.Type()
	if p, ok := types.Unalias(t).(*types.Pointer); ok {
		t = p.Elem()
	}
	return IsNamed(t, pkgPath, typeName)
}

// IsTestingType reports whether t is *testing.T, *testing.B, *testing.F, testing.TB, testify's
// *assert.CollectT or the TestingT interfaces of its assert and require packages, or the T
// interface of github.com/mitchellh/go-testing-interface (testing.T's methods for helpers that
// live outside _test.go files, as HashiCorp's modules write them): the handle of a test, not
// of a request.
func IsTestingType(t types.Type) bool {
	return IsPointerToNamed(t, "testing", "T") || IsPointerToNamed(t, "testing", "B") ||
		IsPointerToNamed(t, "testing", "F") || IsNamed(t, "testing", "TB") ||
		IsPointerToNamed(t, testifyAssert, "CollectT") ||
		IsNamed(t, testifyAssert, "TestingT") || IsNamed(t, testifyRequire, "TestingT") ||
		IsNamed(t, testingInterface, "T")
}

// The packages whose types only tests use: testify's suite (a struct embedding suite.Suite, run
// by suite.Run(t, s)), its assert (the collector of EventuallyWithT's condition, TestingT) and
// require (TestingT), and go-testing-interface (T, testing.T's methods as an interface).
const (
	testifySuite     = "github.com/stretchr/testify/suite"
	testifyAssert    = "github.com/stretchr/testify/assert"
	testifyRequire   = "github.com/stretchr/testify/require"
	testingInterface = "github.com/mitchellh/go-testing-interface"
)

// IsTestSuite reports whether t, or what it points to, is a struct that embeds testify's
// suite.Suite, directly or through other embedded structs: its methods are run by a test.
func IsTestSuite(t types.Type) bool {
	return embeds(t, testifySuite, "Suite", 0)
}

// The packages of generated mocks' machinery: testify's mock.Mock (mockery's template) and
// gomock's Controller (mockgen, in its golang/mock and go.uber.org/mock homes).
const testifyMock = "github.com/stretchr/testify/mock"

var gomockPaths = []string{"go.uber.org/mock/gomock", "github.com/golang/mock/gomock"}

// IsTestDouble reports whether t, or what it points to, is a generated mock: a struct that
// embeds testify's mock.Mock (directly or through other embedded structs) or has a field of type
// *gomock.Controller. Its methods answer what a test programmed; outside a _test.go file too
// (mocks packages), it never stands behind an interface in production.
func IsTestDouble(t types.Type) bool {
	if embeds(t, testifyMock, "Mock", 0) {
		return true
	}
	if p, ok := types.Unalias(t).(*types.Pointer); ok {
		t = p.Elem()
	}
	st, ok := t.Underlying().(*types.Struct)
	if !ok {
		return false
	}
	for i := 0; i < st.NumFields(); i++ {
		for _, path := range gomockPaths {
			if IsPointerToNamed(st.Field(i).Type(), path, "Controller") {
				return true
			}
		}
	}
	return false
}

// embeds reports whether t, or what it points to, is the named type pkgPath.name or a struct
// that embeds it, directly or through other embedded structs.
func embeds(t types.Type, pkgPath, name string, depth int) bool {
	if p, ok := types.Unalias(t).(*types.Pointer); ok {
		t = p.Elem()
	}
	if IsNamed(t, pkgPath, name) {
		return true
	}
	st, ok := t.Underlying().(*types.Struct)
	if !ok || depth > 3 {
		return false
	}
	for i := 0; i < st.NumFields(); i++ {
		if f := st.Field(i); f.Embedded() && embeds(f.Type(), pkgPath, name, depth+1) {
			return true
		}
	}
	return false
}

// IsTestingMethod reports whether fn is a method of a type of package testing (T, B, F and
// TB share theirs through the unexported common).
func IsTestingMethod(fn *types.Func) bool {
	return fn.Signature().Recv() != nil && fn.Pkg() != nil && fn.Pkg().Path() == "testing"
}

// CtxParamIndex returns the index of the first context.Context parameter of sig, or -1.
func CtxParamIndex(sig *types.Signature) int {
	for i := 0; i < sig.Params().Len(); i++ {
		if IsContext(sig.Params().At(i).Type()) {
			return i
		}
	}
	return -1
}

// HasContextMethod reports whether t has a Context() method returning a context.Context (an
// *http.Request, a server stream, a command): a value that hands its holder a ctx.
func HasContextMethod(t types.Type) bool {
	obj, _, _ := types.LookupFieldOrMethod(t, true, nil, "Context")
	fn, ok := obj.(*types.Func)
	return ok && fn.Signature().Params().Len() == 0 && fn.Signature().Results().Len() == 1 &&
		IsContext(fn.Signature().Results().At(0).Type())
}

// GivenCtx reports whether sig takes a ctx: a context.Context, or a value with a Context()
// method (HasContextMethod) that carries its caller's.
func GivenCtx(sig *types.Signature) bool {
	for i := 0; i < sig.Params().Len(); i++ {
		if t := sig.Params().At(i).Type(); IsContext(t) || HasContextMethod(t) {
			return true
		}
	}
	return false
}

// ReturnsContext reports whether one of sig's results is context.Context.
func ReturnsContext(sig *types.Signature) bool {
	for i := 0; i < sig.Results().Len(); i++ {
		if IsContext(sig.Results().At(i).Type()) {
			return true
		}
	}
	return false
}

// DependsOn reports whether pkg is, or transitively imports, a package whose path is one of
// paths or lies below one of them. seen memoises the walk for one query.
func DependsOn(pkg *types.Package, paths ...string) bool {
	seen := make(map[*types.Package]bool)
	var walk func(p *types.Package) bool
	walk = func(p *types.Package) bool {
		if seen[p] {
			return false
		}
		seen[p] = true
		for _, want := range paths {
			if p.Path() == want || strings.HasPrefix(p.Path(), want+"/") {
				return true
			}
		}
		for _, imp := range p.Imports() {
			if walk(imp) {
				return true
			}
		}
		return false
	}
	return walk(pkg)
}

// Imports reports whether pkg imports path directly.
func Imports(pkg *types.Package, path string) bool {
	for _, imp := range pkg.Imports() {
		if imp.Path() == path {
			return true
		}
	}
	return false
}

// TakesCallOptions reports whether sig's last parameter is ...grpc.CallOption: the shape of a
// gRPC client method (generated or hand-written).
func TakesCallOptions(sig *types.Signature) bool {
	if !sig.Variadic() {
		return false
	}
	last, _ := sig.Params().At(sig.Params().Len() - 1).Type().(*types.Slice)
	return last != nil && IsNamed(last.Elem(), GRPCPath, "CallOption")
}

// ImportsContext reports whether pkg imports package context (or golang.org/x/net/context).
func ImportsContext(pkg *types.Package) bool {
	return Imports(pkg, ContextPath) || Imports(pkg, xnetContext)
}

// IsContextPath reports whether path is the import path of package context (or of
// golang.org/x/net/context): what a package that ImportsContext lists among its imports.
func IsContextPath(path string) bool { return samePath(path, ContextPath) }

// FieldVar returns field i of the struct t is, or points to, or nil.
func FieldVar(t types.Type, i int) *types.Var {
	if p, ok := t.Underlying().(*types.Pointer); ok {
		t = p.Elem()
	}
	if s, ok := t.Underlying().(*types.Struct); ok && i >= 0 && i < s.NumFields() {
		return s.Field(i)
	}
	return nil
}

// FuncName is the short name of fn used in messages: "http.Get" for a function, "DB.Query"
// for a method (named by its receiver's type, pointer or not).
func FuncName(fn *types.Func) string {
	if fn == nil {
		return "a function value"
	}
	if recv := fn.Signature().Recv(); recv != nil {
		t := recv.Type()
		if p, ok := types.Unalias(t).(*types.Pointer); ok {
			t = p.Elem()
		}
		if n, ok := types.Unalias(t).(*types.Named); ok {
			return n.Obj().Name() + "." + fn.Name()
		}
		return fn.Name()
	}
	if fn.Pkg() != nil {
		return fn.Pkg().Name() + "." + fn.Name()
	}
	return fn.Name()
}

// Named returns the named type t is, or points to, or nil.
func Named(t types.Type) *types.Named {
	if t == nil {
		return nil
	}
	if p, ok := types.Unalias(t).(*types.Pointer); ok {
		t = p.Elem()
	}
	n, _ := types.Unalias(t).(*types.Named)
	return n
}

// Implementing returns t, or *t when only the pointer does, if it implements iface; or nil.
func Implementing(t types.Type, iface *types.Interface) types.Type {
	if types.Implements(t, iface) {
		return t
	}
	if _, ptr := types.Unalias(t).(*types.Pointer); !ptr {
		if p := types.NewPointer(t); types.Implements(p, iface) {
			return p
		}
	}
	return nil
}

// IsInterfaceMethod reports whether fn is a method of an interface (also one a struct promotes
// from an interface it embeds).
func IsInterfaceMethod(fn *types.Func) bool {
	recv := fn.Signature().Recv()
	return recv != nil && types.IsInterface(recv.Type())
}

// IsBool reports whether t's underlying type is a boolean.
func IsBool(t types.Type) bool {
	b, ok := t.Underlying().(*types.Basic)
	return ok && b.Info()&types.IsBoolean != 0
}
