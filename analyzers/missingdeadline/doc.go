// Package missingdeadline defines an Analyzer that reports unary gRPC client calls made with
// a ctx that has no deadline.
//
// # Analyzer missingdeadline
//
// missingdeadline: report unary gRPC client calls whose ctx has no deadline
//
// On the client, a missing deadline is the commonest cause of hung programs: a unary RPC made
// with context.Background() — or with a ctx derived from it only by WithCancel, WithValue,
// signal.NotifyContext, metadata.NewOutgoingContext and the like — waits for as long as the
// server or the network takes. The first caller at the edge (a CLI, a cron job, a worker)
// decides the budget; when it does not, every downstream service inherits an unbounded one.
//
//	func main() {
//		ctx := context.Background()
//		item, err := client.GetItem(ctx, &pb.GetItemRequest{Id: id}) // reported
//	}
//
// Fix it with ctx, cancel := context.WithTimeout(ctx, 5*time.Second); defer cancel(). Where
// the root plainly drops the ctx its function is given (one ctx parameter, named or _, never
// used; the root's one use is as the ctx of the RPC call itself, outside any loop), the message
// says to use that ctx instead: its callers, not a budget of its own, decide how long the work
// may take.
//
// Client calls are recognised by type: methods of a generated grpc-go client (first parameter
// a context.Context, last ...grpc.CallOption, results (*Message, error)), connect-go unary
// client methods ((ctx, *connect.Request[T]) (*connect.Response[U], error)),
// grpc.ClientConnInterface.Invoke and (*grpc.ClientConn).Invoke, and the APIs listed in
// -missingdeadline.clientapis.
//
// The check is interprocedural. A function that passes its ctx parameter to such a call
// without adding a deadline is checked at its callers instead, in this package and, through a
// fact, in the packages that import it; the finding is reported at the call that supplies the
// deadline-less ctx, with related positions down to the client call. An interface call is
// followed into its implementations when all of them are functions of the package: it passes
// the need on when each implementation needs a deadline for the same parameter or ignores its
// ctx; an implementation that adds a deadline, or one out of sight, ends the chain.
//
// One deadline-less ctx is one decision. When it reaches several calls one after the other in
// one function, the first is reported and the others are related positions. Calls on paths no
// run takes two of (the verbs of a CLI's switch) are reported each when some path gives the ctx a
// deadline (a verb that applies the user's -timeout, there or in a function of the package it
// hands the ctx to): the others are oversights of their own. A deadline derived anew on each
// turn of a loop (a canary's cycle bounded by the next tick) is a periodic job's schedule, not
// such a sign. When none does, the decision is
// where the ctx is made: one finding there, the verbs' calls as related positions. When it is
// made by a factory that the calling functions share (func getContext() context.Context, in
// this package or another), it is reported once per package, at the first call in source
// order, the other functions' calls as related positions.
//
// Not reported:
//   - calls in request scope (handlers, server interceptors, closures created in them): they
//     inherit the caller's deadline, and a dropped one there is ctxbackground's finding;
//   - a ctx that comes from the request, from a parameter, field or global whose origin is
//     not visible, or through a function whose body is not visible;
//   - a ctx from context.WithoutCancel: the detach rule reports an unbounded one at the
//     WithoutCancel call;
//   - a root that is only the fallback of a nil check of a ctx that is given — a parameter,
//     or a field the package sets to a ctx (if f.ctx != nil { return f.ctx }; return
//     context.Background(), with &File{ctx: ctx} where a request opens a file), or of a nil
//     check of a holder of one that is given (if p.host == nil { return context.Background() };
//     return p.host.Request(), the holder's type having a ctx field or a method returning one):
//     the one given decides;
//   - streaming calls (NewStream, grpc.NewClientStream, server-, client- and bidi-streaming
//     client methods): a total deadline is the wrong tool for a long-lived stream; use
//     keepalive and heartbeats. -missingdeadline.streams reports them too;
//   - calls through a client or *grpc.ClientConn built in the same package by grpc.NewClient,
//     grpc.Dial or grpc.DialContext with grpc.WithUnaryInterceptor(f) or
//     grpc.WithChainUnaryInterceptor(..., f, ...), where f is a function or function literal of
//     the package (or what a function of the package returns) whose body either calls its
//     grpc.UnaryInvoker only with a ctx that has a deadline on every path, or calls Deadline()
//     on a context.Context and calls the invoker with a ctx that, on some path, comes through
//     context.WithTimeout, WithDeadline or their …Cause forms; such an interceptor of another
//     package of the module (or a function returning one, known through a fact) and
//     go-grpc-middleware's timeout.UnaryClientInterceptor(d) count too. Every way the client
//     value is computed — locals, phis, struct fields and globals assigned in the package,
//     functions of the package returning it, generated NewXxxClient(cc) constructors, and
//     functions of other packages of the module that always return such a connection or a
//     client on one, as any of their results (a shared transport.Dial helper, a client set's
//     NewRepoServerClient() (io.Closer, RepoServerServiceClient, error); known through a fact),
//     also through an interface method whose every implementation in sight does (generated
//     mocks left out) — must lead to such a connection;
//   - the same default written inline: a ctx that reaches the call both with and without a
//     deadline, in a function that (itself, a function enclosing it, or a ctx-returning helper
//     of the package it calls) calls Deadline() on a ctx —
//     if _, ok := ctx.Deadline(); !ok { ctx, cancel = context.WithTimeout(ctx, d) };
//   - an RPC in a callback that a helper runs under a deadline when a time.Duration it is
//     given is positive (if wait > 0 { attempt, cancel = context.WithTimeout(ctx, wait) }; fn(
//     attempt) — in place, or on a goroutine it waits for), unless the caller passes a constant
//     zero: how long is then the caller's setting, as with a -timeout flag;
//   - the same for a ctx a helper returns (in the package, or in another through its fact):
//     if timeout > 0 { return context.WithTimeout(context.Background(), timeout) }; return
//     context.Background(), the duration a parameter or a field reached from one (req.Timeout)
//     — unless the caller passes a constant zero;
//   - a call given an option that bounds each attempt with a deadline of its own
//     (go-grpc-middleware's retry WithPerRetryTimeout, v1 or v2);
//   - a ctx whose cancel function a timer runs — ctx, cancel := context.WithCancel(ctx) with
//     time.AfterFunc(d, cancel), or a literal calling cancel: a deadline in all but name, and a
//     watchdog the work resets as it makes progress bounds each step;
//     or one handed only to goroutines by a function that defers its cancel and, on every way
//     to its return, waits on a timer outside any loop (go work(ctx); select { case
//     <-ticker.C: case <-done: }): it returns, and cancels, when the timer fires at the latest;
//   - a call through a generated client interface (pb.CatalogClient) when a type of the package
//     or of one it imports implements that interface with a method, of the generated shape,
//     that makes each of its unary RPCs with a deadline (a service's own client library
//     wrapping every attempt in context.WithTimeout; known through a fact), unless every value
//     the receiver may hold comes from a generated constructor (pb.NewCatalogClient(conn)):
//     which implementation the interface holds is wired out of sight. A call of such a method
//     by its concrete type is no RPC either. The deadline may be given by a helper of the
//     package the method hands each call to as a function literal, when the helper derives it
//     before it runs the literal and hands the literal nowhere else (invoke(ctx, c, func(ctx
//     context.Context, cc pb.CatalogClient) (*R, error) { return cc.GetItem(ctx, in) }));
//   - a call of a concrete method of another package with connect-go's unary shape (Method(ctx,
//     *connect.Request[Req]) (*connect.Response[Res], error)), other than connect's own Client:
//     connect gives handlers and clients one shape, and its generated clients are reached
//     through their interface, so the method is judged by its body (its needsDeadline fact): a
//     handler run in the process, a fan-out over local shards, makes no RPC;
//   - a root made in a method that implements a method taking no ctx of one of the package's
//     own interfaces (an interactive shell's commands behind Do(args, env, w) error), with no
//     ctx in sight (no parameter or receiver that is, or holds within two fields, a
//     context.Context, a value with a Context() method or a receive-only chan struct{}), when
//     the package calls that method through the interface only from code that no ctx reaches
//     (the shell's loop, called from main; not a handler), or in an unexported helper only such
//     methods call: the interface decides that no caller's deadline reaches them, and its fix, a
//     method that takes a ctx, is a change of API one finding per implementation would repeat.
//     Implementations of other packages' interfaces (io.Reader, a plugin API) are reported;
//   - test code (calls in _test.go files, in functions run by a test — taking a *testing.T, B, F,
//     testing.TB, testify's *assert.CollectT or TestingT, or go-testing-interface's T (test
//     helpers outside _test.go files), methods of a struct embedding testify's
//     suite.Suite, or nested in one — and in packages whose non-test files import testing),
//     unless -missingdeadline.tests is set, and generated files.
package missingdeadline
