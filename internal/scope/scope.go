// Package scope decides which functions are request scopes — code that runs on behalf of one
// incoming RPC and should use its ctx — and what their request ctx is.
//
// Request scopes are recognised by type, never by names:
//   - grpc-go handlers: the methods, declared on a type of this package, of a service interface
//     registered by a generated RegisterXxxServer(grpc.ServiceRegistrar, XxxServer). Unary
//     handlers carry the request in their ctx parameter; streaming handlers (per-method stream
//     interfaces or the generic grpc.ServerStreamingServer[T] family) in stream.Context();
//   - grpc-go server interceptors: functions, methods and literals of the shape of
//     grpc.UnaryServerInterceptor (ctx) or grpc.StreamServerInterceptor (ss.Context());
//   - connect-go handlers: methods of a type implementing a handler interface registered by a
//     generated NewXxxHandler(svc, ...connect.HandlerOption); their ctx parameter;
//   - functions whose doc comment holds //deadlinelint:scope; their first ctx parameter;
//   - closures and goroutine bodies created inside any of the above, and an unexported function
//     or method of the package that nothing but go statements in scopes refers to, each
//     started with the scope's request ctx (go s.flush(ctx, id)): the goroutine's body.
//
// Handlers, interceptors and connect-go handlers declared in _test.go files are test doubles
// of servers (a fake that sleeps to provoke a client's timeout): not request scopes, unless
// marked //deadlinelint:scope. The same holds for functions run by a test (they, or a function
// enclosing them, take a *testing.T, B, F or testing.TB, or are methods of a testify suite) and
// for every function of a test-support package (one whose non-test files import "testing":
// fakes, harnesses, e2e suites), except the handlers of a server that production code of the
// package registers, declared in files that do not import testing (see Find). Set.TestSupport
// answers, for each function, whether it is such test code: the rules that report outside
// request scopes too (missingdeadline, detach) ask it.
//
// Other methods of a server type (constructors, Close, background workers) are not request
// scopes: context.Background() there is legitimate.
package scope

import (
	"go/ast"
	"go/token"
	"go/types"
	"strings"

	"golang.org/x/tools/go/ssa"

	"github.com/deadlinelint/deadlinelint/internal/directive"
	"github.com/deadlinelint/deadlinelint/internal/typesutil"
)

// Kind says why a function is a request scope.
type Kind int

const (
	Unary       Kind = iota + 1 // grpc-go unary handler
	Streaming                   // grpc-go streaming handler
	Interceptor                 // grpc-go server interceptor
	Connect                     // connect-go handler
	Marked                      // //deadlinelint:scope
	Closure                     // a function literal inside another scope
	Started                     // a function of the package that only scopes start, with go and the request ctx
)

// Scope is one request scope.
type Scope struct {
	Func   *ssa.Function
	Kind   Kind
	Parent *Scope         // Closure: the enclosing scope
	Ctx    *ssa.Parameter // the request ctx parameter, if the request arrives as one
	Stream *ssa.Parameter // the server stream whose Context() is the request ctx
	Recv   *ssa.Parameter // the receiver of a scope method (handler, interceptor, marked): the long-lived value
}

// Handler returns the outermost scope: the handler, interceptor or marked function itself.
func (s *Scope) Handler() *Scope {
	for s.Parent != nil {
		s = s.Parent
	}
	return s
}

// Name returns a short display name of the handler, such as "Catalog.GetItem", or
// "NewAuth.func1" for a function literal (the name Go's stack traces give it).
func (s *Scope) Name() string {
	fn := s.Handler().Func
	if fn.Parent() != nil {
		return strings.Replace(fn.Name(), "$", ".func", 1)
	}
	if obj, ok := fn.Object().(*types.Func); ok && obj.Signature().Recv() != nil {
		return typesutil.FuncName(obj)
	}
	return fn.Name()
}

// Set is the request scopes of one package.
type Set struct {
	byFunc  map[*ssa.Function]*Scope
	ctx     map[*ssa.Parameter]bool
	streams map[*ssa.Parameter]bool
	recvs   map[*ssa.Parameter]bool
	// production: in a test-support package (its non-test files import testing), the
	// functions its scopes (a production server's handlers) reach; nil in any other
	production map[*ssa.Function]bool
}

// Of returns the scope of fn, or nil when fn is not a request scope.
func (s *Set) Of(fn *ssa.Function) *Scope { return s.byFunc[fn] }

// TestSupport reports whether fn is test code, where no caller's deadline is lost and a call
// waits for no one in production: run by a test (RunByTest), or, in a test-support package,
// any function but the scopes of a production server there and what they call (Find).
func (s *Set) TestSupport(fn *ssa.Function) bool {
	return RunByTest(fn) || s.production != nil && !s.production[fn]
}

// Len returns the number of scopes, closures included.
func (s *Set) Len() int { return len(s.byFunc) }

// IsRequestCtx reports whether p is the request ctx parameter of a scope.
func (s *Set) IsRequestCtx(p *ssa.Parameter) bool { return s.ctx[p] }

// IsRequestStream reports whether p is the server-stream parameter of a scope.
func (s *Set) IsRequestStream(p *ssa.Parameter) bool { return s.streams[p] }

// IsServerReceiver reports whether p is the receiver of a handler method.
func (s *Set) IsServerReceiver(p *ssa.Parameter) bool { return s.recvs[p] }

// IsScope reports whether fn is a request scope.
func (s *Set) IsScope(fn *ssa.Function) bool { return s.byFunc[fn] != nil }

// Find returns the request scopes among funcs, the source functions of pkg (function literals
// included). In a test-support package (testing, its non-test files that import "testing",
// is not empty) only marked functions are scopes, and the methods of a service that production
// code of the package registers (a RegisterXxxServer call outside those files and outside code a
// test runs), declared in files that do not import testing: a production server beside a test
// helper of the package (tidb's RPC server beside a mock connection), not a fake that a
// function taking a *testing.T registers.
func Find(pkg *types.Package, funcs []*ssa.Function, testing map[string]bool) *Set {
	set := &Set{
		byFunc:  make(map[*ssa.Function]*Scope),
		ctx:     make(map[*ssa.Parameter]bool),
		streams: make(map[*ssa.Parameter]bool),
		recvs:   make(map[*ssa.Parameter]bool),
	}
	handlers := handlerMethods(pkg, serviceInterfaces(pkg))
	for fn := range connectHandlers(pkg) {
		handlers[fn] = true
	}
	f := finder{handlers: handlers, grpc: lookupGRPC(pkg), testing: testing}
	if len(testing) > 0 {
		f.registered = registeredByProduction(funcs, testing)
	}
	for _, fn := range funcs {
		if sc := f.classify(fn); sc != nil {
			set.add(sc)
		}
	}
	set.inherit(funcs)
	if started := startedOnly(funcs, set); len(started) > 0 {
		for _, sc := range started {
			set.add(sc)
		}
		set.inherit(funcs) // the literals of the functions started
	}
	if len(testing) > 0 {
		set.production = set.reached(funcs)
	}
	return set
}

// reached returns the scopes and the functions among funcs they reach through their literals
// and static calls: the production code of a test-support package.
func (s *Set) reached(funcs []*ssa.Function) map[*ssa.Function]bool {
	own := make(map[*ssa.Function]bool, len(funcs))
	for _, fn := range funcs {
		own[fn] = true
	}
	out := make(map[*ssa.Function]bool)
	var queue []*ssa.Function
	visit := func(fn *ssa.Function) {
		if fn != nil && fn.Origin() != nil {
			fn = fn.Origin() // an instance of a generic function: its body is the origin's
		}
		if fn != nil && own[fn] && !out[fn] {
			out[fn] = true
			queue = append(queue, fn)
		}
	}
	for fn := range s.byFunc {
		visit(fn)
	}
	for len(queue) > 0 {
		fn := queue[0]
		queue = queue[1:]
		for _, anon := range fn.AnonFuncs {
			visit(anon)
		}
		for _, b := range fn.Blocks {
			for _, instr := range b.Instrs {
				if call, ok := instr.(ssa.CallInstruction); ok {
					visit(call.Common().StaticCallee())
				}
			}
		}
	}
	return out
}

// inherit gives closures the scope of the function they are created in. funcs lists a
// function before its literals, so parents are classified first.
func (s *Set) inherit(funcs []*ssa.Function) {
	for _, fn := range funcs {
		if fn.Parent() == nil || s.byFunc[fn] != nil {
			continue
		}
		if parent := s.byFunc[fn.Parent()]; parent != nil {
			s.add(&Scope{Func: fn, Kind: Closure, Parent: parent})
		}
	}
}

func (s *Set) add(sc *Scope) {
	s.byFunc[sc.Func] = sc
	for p, m := range map[*ssa.Parameter]map[*ssa.Parameter]bool{sc.Ctx: s.ctx, sc.Stream: s.streams, sc.Recv: s.recvs} {
		if p != nil {
			m[p] = true
		}
	}
}

type finder struct {
	handlers map[*types.Func]bool // the methods that serve a registered service
	grpc     *grpcTypes
	testing  map[string]bool // the package's non-test files that import testing
	// registered: in a test-support package, the server types its production code registers
	registered map[*types.TypeName]bool
}

// registeredByProduction returns the named types whose values funcs register as a gRPC or
// connect-go service (a call of a RegisterXxxServer or NewXxxHandler) from code that is not
// test code: outside the files that import testing, in a function no test runs.
func registeredByProduction(funcs []*ssa.Function, testing map[string]bool) map[*types.TypeName]bool {
	out := make(map[*types.TypeName]bool)
	for _, fn := range funcs {
		if RunByTest(fn) || testing[fileOf(fn.Prog.Fset, fn.Pos())] {
			continue
		}
		for _, b := range fn.Blocks {
			for _, instr := range b.Instrs {
				call, ok := instr.(*ssa.Call)
				if !ok {
					continue
				}
				callee := call.Call.StaticCallee()
				if callee == nil || registeredInterface(callee.Signature) == nil {
					continue
				}
				for _, arg := range call.Call.Args {
					if mi, ok := arg.(*ssa.MakeInterface); ok {
						if tn := namedOf(mi.X.Type()); tn != nil {
							out[tn] = true
						}
					}
				}
			}
		}
	}
	return out
}

// namedOf returns the type name (of the generic origin) of the named type t is or points to,
// or nil.
func namedOf(t types.Type) *types.TypeName {
	if n := typesutil.Named(t); n != nil {
		return n.Origin().Obj()
	}
	return nil
}

// productionServer reports whether fn, in a test-support package, is a method of a service
// that the package's production code registers (registeredByProduction), declared, type and
// method, in files that do not import testing.
func (f *finder) productionServer(fn *ssa.Function) bool {
	if fn.Signature.Recv() == nil || !f.isServiceMethod(fn) || f.testing[fileOf(fn.Prog.Fset, fn.Pos())] {
		return false
	}
	tn := namedOf(fn.Signature.Recv().Type())
	return tn != nil && f.registered[tn] && !f.testing[fileOf(fn.Prog.Fset, tn.Pos())]
}

// fileOf returns the name of the file holding pos, or "".
func fileOf(fset *token.FileSet, pos token.Pos) string {
	if f := fset.File(pos); f != nil {
		return f.Name()
	}
	return ""
}

// classify returns the scope fn opens by itself (not as a closure), or nil.
func (f *finder) classify(fn *ssa.Function) *Scope {
	sc := f.classifyKind(fn)
	if sc != nil && fn.Signature.Recv() != nil {
		sc.Recv = fn.Params[0]
	}
	return sc
}

func (f *finder) classifyKind(fn *ssa.Function) *Scope {
	sig := fn.Signature
	if (len(f.testing) > 0 && !f.productionServer(fn) || RunByTest(fn)) && !f.isMarked(fn) {
		return nil // a test double of a server, or test support: no caller's deadline to lose
	}
	switch {
	case sig.Recv() != nil && f.isServiceMethod(fn):
		return f.handlerScope(fn)
	case f.grpc != nil && sameShape(sig, f.grpc.unaryInterceptor):
		return &Scope{Func: fn, Kind: Interceptor, Ctx: param(fn, typesutil.CtxParamIndex(sig))}
	case f.grpc != nil && sameShape(sig, f.grpc.streamIntercept):
		return &Scope{Func: fn, Kind: Interceptor, Stream: param(fn, 1)}
	case f.isMarked(fn):
		if i := typesutil.CtxParamIndex(sig); i >= 0 {
			return &Scope{Func: fn, Kind: Marked, Ctx: param(fn, i)}
		}
	}
	return nil
}

// RunByTest reports whether fn is test code: declared in a _test.go file, or run by a test (it,
// or a function enclosing it, takes a *testing.T, B, F or testing.TB: an interceptor literal a
// test helper installs on its fake server, a helper driving a client; or it is a method of a
// testify suite, which suite.Run runs), in or out of a _test.go file. Nobody's deadline is lost
// there, and a call there waits for no one in production.
func RunByTest(fn *ssa.Function) bool { return inTestFile(fn) || takesTestingArg(fn) }

// TestingFiles returns the names of the non-test files among files that import "testing". A
// package with one is test support (fakes, harnesses, end-to-end suites): production code does
// not import package testing, whose flags and helpers only a test binary needs. A package can
// also hold a production server beside a test helper of its own (a mock connection for other
// packages' tests): see Find.
func TestingFiles(fset *token.FileSet, files []*ast.File) map[string]bool {
	var out map[string]bool
	for _, f := range files {
		name := fset.File(f.Pos()).Name()
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		for _, imp := range f.Imports {
			if imp.Path.Value == `"testing"` {
				if out == nil {
					out = make(map[string]bool)
				}
				out[name] = true
			}
		}
	}
	return out
}

// takesTestingArg reports whether fn, or a function enclosing it, takes a *testing.T, B, F or a
// testing.TB (or testify's *assert.CollectT), or is a method of a testify suite.
func takesTestingArg(fn *ssa.Function) bool {
	for ; fn != nil; fn = fn.Parent() {
		if recv := fn.Signature.Recv(); recv != nil && typesutil.IsTestSuite(recv.Type()) {
			return true
		}
		params := fn.Signature.Params()
		for i := 0; i < params.Len(); i++ {
			if typesutil.IsTestingType(params.At(i).Type()) {
				return true
			}
		}
	}
	return false
}

// inTestFile reports whether fn is declared in a _test.go file.
func inTestFile(fn *ssa.Function) bool {
	f := fn.Prog.Fset.File(fn.Pos())
	return f != nil && strings.HasSuffix(f.Name(), "_test.go")
}

// param returns the i'th declared parameter of fn (not counting the receiver), or nil.
func param(fn *ssa.Function, i int) *ssa.Parameter {
	if fn.Signature.Recv() != nil {
		i++
	}
	if i < 0 || i >= len(fn.Params) {
		return nil
	}
	return fn.Params[i]
}

// isServiceMethod reports whether fn is a method of this package that serves a registered
// service (see handlerMethods).
func (f *finder) isServiceMethod(fn *ssa.Function) bool {
	obj, ok := fn.Object().(*types.Func)
	return ok && fn.Synthetic == "" && f.handlers[obj]
}

// handlerScope builds the scope of a service method: unary and connect handlers take the
// request ctx as a parameter, grpc-go streaming handlers a stream.
func (f *finder) handlerScope(fn *ssa.Function) *Scope {
	sc := &Scope{Func: fn}
	if i := typesutil.CtxParamIndex(fn.Signature); i >= 0 {
		sc.Ctx = param(fn, i)
		sc.Kind = Unary
		if isConnectSignature(fn.Signature) {
			sc.Kind = Connect
		}
		return sc
	}
	for _, p := range fn.Params[1:] {
		if f.grpc.isServerStream(p.Type()) {
			sc.Stream, sc.Kind = p, Streaming
			return sc
		}
	}
	return nil
}

// isConnectSignature reports whether sig has a connect-go request or stream parameter.
func isConnectSignature(sig *types.Signature) bool {
	for i := 0; i < sig.Params().Len(); i++ {
		t := sig.Params().At(i).Type()
		for _, name := range []string{"Request", "ServerStream", "ClientStream", "BidiStream"} {
			if typesutil.IsPointerToNamed(t, typesutil.ConnectPath, name) {
				return true
			}
		}
	}
	return false
}

// isMarked reports whether fn's declaration carries //deadlinelint:scope in its doc comment.
func (f *finder) isMarked(fn *ssa.Function) bool {
	decl, ok := fn.Syntax().(*ast.FuncDecl)
	if !ok || decl.Doc == nil {
		return false
	}
	for _, c := range decl.Doc.List {
		if d, ok := directive.Parse(c.Text); ok && d.Kind == directive.Scope {
			return true
		}
	}
	return false
}

// InGoroutine reports whether the scope is a function literal started by a go statement, or
// created inside one: its code may still run after the handler has returned, when the
// request ctx is already cancelled.
func (s *Scope) InGoroutine() bool {
	for ; s.Parent != nil; s = s.Parent {
		if s.Kind == Started || StartedByGo(s.Func) {
			return true
		}
	}
	return false
}

// StartedByGo reports whether the function literal fn is the function of a go statement.
func StartedByGo(fn *ssa.Function) bool {
	refs := fn.Referrers()
	if refs == nil {
		return false
	}
	for _, ref := range *refs {
		var v ssa.Value = fn
		if mc, ok := ref.(*ssa.MakeClosure); ok {
			v = mc
		}
		if uses := v.Referrers(); uses != nil {
			for _, use := range *uses {
				if g, ok := use.(*ssa.Go); ok && g.Call.Value == v {
					return true
				}
			}
		}
		if g, ok := ref.(*ssa.Go); ok && g.Call.Value == v {
			return true
		}
	}
	return false
}
