// Package ctxbackground defines an Analyzer that reports context.Background() and
// context.TODO() evaluated in a request scope.
//
// # Analyzer ctxbackground
//
// ctxbackground: report context.Background() and context.TODO() in request scopes
//
// A gRPC handler's ctx carries the caller's remaining deadline and its cancellation. A
// context.Background() or context.TODO() evaluated inside a handler — a grpc-go unary or
// streaming handler, a server interceptor, a connect-go handler, a function marked
// //deadlinelint:scope, or a closure or goroutine created in one — starts a new context tree:
// every call made with it keeps running after the caller has given up. Wrapping it in
// context.WithTimeout only replaces the caller's remaining budget with a fresh one.
//
//	func (s *Server) GetItem(ctx context.Context, req *pb.GetItemRequest) (*pb.Item, error) {
//		return s.repo.Load(context.Background(), req.Id) // reported
//	}
//
// The finding is reported once, at the Background/TODO call, with the ctx-taking calls it
// reaches as related positions, and a suggested fix that passes the request ctx instead
// when that identifier is in scope — none when the work runs on a goroutine the handler starts
// (the root made in it, handed to go, or captured by it): the request ctx would cancel that work
// as the handler returns, and the message offers context.WithoutCancel(ctx) with a timeout.
// Not reported: a fallback for a nil ctx (if ctx == nil {
// ctx = context.Background() }) or for a nil holder of one (if p.host == nil { return
// context.Background() }; return p.host.Request(), where the holder's type has a ctx field or
// a method returning one), a comparison with Background, a root handed only to
// functions that only ask it whether it is done (below), a root used only to carry values
// (read from, logged with, measured with, or derived into a ctx used so: a log line's fields
// are lost, not a deadline), or handed only to functions that never refer to the ctx they take
// (a getter returning a field, called directly, or through an interface every value of whose
// receiver is in sight: not through a function value, or an interface with a value set out of
// sight, whose callee may do anything), a root handed only to
// functions that use their ctx only in goroutines they start (an exit monitor, a wait
// returning a channel, also behind an interface every implementation in sight of which does:
// the root is its lifetime, which the request ctx would end) or to make the lifetime of an
// object (a function of the package doing only s.ctx, s.cancel = context.WithCancel(ctx), the
// cancel kept for the object's Stop), a root whose derivation's cancel function an object
// keeps in a field, as it is or called from a function literal kept there (a subscription, a
// job prepared now and run later: the object's lifetime), and a root created in a
// function that sync.Once.Do, sync.OnceFunc, OnceValue or OnceValues runs — a one-time
// initialisation of shared state, which must not fail for every later request because the
// request that triggered it was cancelled; nor is work in the handler's branch on a field of
// the server that the handler then sets (if s.toolVersion == "" { s.toolVersion = tool.Version() }).
// Nor is the root a documented helper returns after detaching the request's ctx by hand (it
// only reads values from the ctx it is given — itself, or through functions of the module that
// only read them — and returns them on a fresh root, wrapped only in context.WithValue, the
// incoming-metadata and trace wrappers, or functions of the module that only add values; never
// in outgoing metadata, carried to an RPC the request waits on):
// context.WithoutCancel written out, its doc comment the reason.
//
// Real services rarely call Background in the handler itself: they call a helper, a
// repository or a client wrapper that does. Through facts, a function that runs ctx-taking
// work with a root context of its own — or calls one that does — is summarised, across the
// packages of the analysed module (one that imports no context package too), and a request
// scope calling it is reported at the call site, with every root its work reaches named in the
// message (a harmless first root does not hide a second one) and the chain of calls to each. A root is one decision: it is reported
// once per package, at the first call in source order that reaches it, with the other calls
// (from any handler) as related positions. A //deadlinelint:ignore ctxbackground <reason> on
// the root's line (or the line above) silences every report through it, in every package. Calls through an
// interface follow its implementations declared in the package and the packages it imports;
// calls of a func-typed field follow the functions stored into it in the package, and a method
// of another package that runs a field of its receiver (cache.Get calling c.load) follows the
// function this package handed to the constructor that stored it (cache.New(s.fetch)), known
// through facts; where the candidates are not known, nothing is reported. An interface call drops only when no
// implementation passes its ctx on (one that ignores its ctx is neutral; the service's own
// gRPC client adapter, types of _test.go files and a struct that implements the interface only
// by embedding it are no candidates; a generated mock, testify
// or gomock, still counts as one that passes its ctx on), and a root handed to an interface
// call whose every production implementation ignores its ctx loses nothing. A root reached only
// on a branch of a bool parameter (if !ensureInit { return nil } … load), or of a parameter
// compared with an integer or string constant (if purpose != intervalUpdate { return } … save),
// is not reached by a call passing another constant, static or through an interface.
//
// A transitive report claims the handler's deadline is lost in work done for it. The chain
// therefore stops at work that is not: a goroutine a callee starts (its lifetime is its own), a
// deferred call (cleanup), a literal run by sync.Once anywhere on the chain, work done only on
// the first use of shared state (after a check of a field the function then sets, such as
// if e.isOpen or if c.id.Load() == nil, or when a key is absent from a map field the function
// fills while holding a lock until it returns: a per-key resource created once; a read-through
// cache that fetches outside its lock or again when an entry expires is request work), cleanup
// after a failure (in the err != nil branch of a helper that then returns that error, or wraps
// it: a release, an undo; a fallback whose answer is returned is request work), work that runs only
// once the ctx is done (context.AfterFunc, after <-ctx.Done() or in its select case), a root
// made cancellable and cancelled when the request's ctx is done (context.WithCancel of it, with
// context.AfterFunc(ctx, cancel), or with a goroutine that waits for ctx.Done() and then calls
// cancel: it lives as long as the request, in every rule), a
// root handed to a function value loaded from a field (out of sight), a root handed to a ctx
// setter (a method taking only a ctx and returning nothing) as an object's idle ctx — the reset
// after the work the function did with the same object's ctx set through the same setter
// (r.SetContext(ctx); r.Run(); r.SetContext(context.Background()), before a pooled runtime goes
// back), or the first ctx of an object the function makes and keeps — a root given only to a
// dial (grpc.DialContext, net.Dialer and tls.Dialer DialContext: a connection shared by later
// requests; or a dial helper of the module that refers to its ctx only to dial and keeps the
// connection it returns), a root only asked whether it is done (ctx.Err() or ctx.Done()
// compared with nil in a function without a loop, after the work: a connection cache deciding
// whether a failure was the caller's deadline — in a loop, the answer may stop it, and that is
// work), and a call of a function that does no work with its ctx (it never uses it, only
// reads values from it or logs with it, starts a span and drops the ctx the tracer returns,
// or hands it to functions that do the same: a summary exported as a fact), nor a root handed to
// a function (or, through an interface, every implementation in sight) whose only work with its
// ctx is done on the first use of state it keeps or in a literal the Do of a shared sync.Once
// runs — a field's, not a local Once that runs on every call — (a store reading its ID once
// into an atomic field: initialisation every later caller shares), nor a bounded fresh budget a
// helper picks for one piece of work beside work it does with its own ctx (a rollback after the
// caller's budget ran out), or lends its ctx's values to (trace.ContextWithSpan(fresh,
// trace.SpanFromContext(ctx)): a detach decided and bounded) — a log line or a metric beside it
// is no such work. In the
// handler itself, a bounded fresh ctx in a deferred function literal is the cleanup idiom and is
// not reported, nor is one made only on the way out of a failure: in the err != nil branch from
// which the handler returns that error, or from which a goroutine it starts (one with no
// results, such as a loop over a failed Recv) returns — every way on ending, not polling in a
// loop with no way out — nor a helper called only in such a
// branch of the handler (an undo before it returns the error); a failure the function goes on
// from, or swallows, is not a way out. Nor is a root the handler writes and hands only to
// work of the kinds the chain stops at: a method of the server's own state that works with its
// ctx only on the first use of state it keeps (s.store.ID(context.Background()), a static call,
// or an interface call whose every possible value is in sight; not an object the request made),
// a ctx setter that only stores it, as the object's idle ctx (the reset before a pooled object
// goes back, nothing done with it after), or a child cancelled by a goroutine that selects on
// the request's ctx.Done() — calling cancel in that case — and otherwise only on the child's own
// Done() or a channel the handler closes by a defer as it returns and nothing else touches (the
// AfterFunc idiom written out).
//
// A helper — in any package of the module —
// that returns a root context which the handler then works with (ctxutil.NewRoot(),
// telemetry.StartLinked(ctx) returning a span on context.Background()) is reported at the
// handler's call of the helper, with the work it reaches as related positions. Code of the
// standard library and of dependency modules is not followed unless -ctxbackground.external is
// set; -ctxbackground.transitive=false turns the following off. A call of a method whose
// ctx-taking variant exists (s.kv.Get(key) beside GetContext), made in a helper of the package
// a request scope hands its ctx, is ctxless's finding there, and the root the method makes
// behind it is that one decision: not reported again at the scope's call of the helper.
//
// Constructors, main, Close and background workers are not request scopes and are not
// reported. Work that must outlive the request should use context.WithoutCancel(ctx) with its
// own timeout (see the detach rule).
package ctxbackground
