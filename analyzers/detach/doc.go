// Package detach defines an Analyzer that reports context.WithoutCancel calls whose detached
// work has no deadline of its own, or no comment saying why it must outlive the request.
//
// # Analyzer detach
//
// detach: report context.WithoutCancel without a deadline of its own or without a reason
//
// context.WithoutCancel(ctx) keeps ctx's values (trace ids, metadata) but drops its
// cancellation and its deadline. That is right for work that must outlive the request — an
// audit record, an event, a compensating write — but only when the detached work gets a
// budget of its own and the code says why it must survive the caller:
//
//	// the audit row must be written even if the client gives up
//	actx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 2*time.Second)
//	defer cancel()
//
// By default a WithoutCancel call is reported, once, at the call, when it detaches from a
// request and its work has neither a bound nor a reason: either one is a decision somebody made.
// It detaches from a request when its argument is, on some path, the request ctx of a request
// scope, or a ctx parameter that the package's request scopes hand their request ctx to
// (directly, or through other functions of the package). Detaching anything else — a
// component's lifetime ctx, a job's, the ctx of a library function called from anywhere — loses
// no caller's deadline that the analysis can see, and real code is full of it: cleanup after a
// failure that must run even when the build was cancelled, releases of local references. With
// -detach.strict every WithoutCancel, in request scope or not, is reported when either the bound
// or the reason is missing (the Go article's full advice); the message says which, or both.
//
//   - A bound: its result reaches ctx-taking work — a call, a go or defer statement, or a closure
//     that captures it, anywhere in the package — only on paths where context.WithTimeout,
//     WithDeadline, WithTimeoutCause or WithDeadlineCause (or a function of the module that
//     adds a deadline) is applied. A call to a function of the analysed module — in this
//     package, or in another through a fact — is looked into: it is work only if that function
//     hands the ctx to work with no deadline of its own — a wrapper that applies a default
//     deadline when its ctx has none (if _, ok := ctx.Deadline(); !ok { ctx, cancel =
//     context.WithTimeout(ctx, d) }) gives a detached one its own. Logging with the ctx (log/slog) and
//     reading values out of it (gRPC metadata, peer, method, the trace span) are not work.
//   - A reason: a comment on the line of the call or of the first line of its statement, on its
//     own line directly above the statement (or directly above the call, inside a multi-line
//     statement), above the declarations (var err error), or the statements that detach too
//     (a run of go statements each handing a WithoutCancel on), directly preceding the statement,
//     above an enclosing statement (the go or defer statement, the if or for
//     whose block holds it), a //deadlinelint:detach <reason> directive there, or the doc
//     comment of the enclosing function when that function is a helper whose job is the detach
//     (it returns a ctx, or runs a callback it is given). A wrapper whose methods only hand the
//     detached ctx on (return p.next.Get(context.WithoutCancel(ctx), key)) has its reason where
//     it is made: the doc comment of the function that hands it out as an interface, or of the
//     wrapper whose method does. TODO, FIXME and XXX notes are not
//     reasons; a //deadlinelint:detach without a reason is reported; directives such as
//     //deadlinelint:ignore or //nolint are not reasons. A //deadlinelint:detach that applies to
//     no WithoutCancel call is reported too.
//
// A WithoutCancel of a test's own ctx (t.Context() in a t.Cleanup) is not reported, nor one in
// test code (a _test.go file, a function taking a *testing.T, B, F or testing.TB — or
// testify's TestingT, go-testing-interface's T —, a package whose non-test files import
// testing): a test is not a request.
//
// A WithoutCancel whose result is
// never used is not reported. One whose result is used but reaches no ctx-taking work the
// analysis can see (it is returned, stored in a struct field, passed to a function of another
// package that returns a ctx) is reported only when the reason is missing: where the work
// happens, and whether it is bounded there, is out of sight (under -detach.strict). For the same reason nothing is
// said about unboundedness when the detached ctx passes through a function whose body is not
// visible before it reaches work, nor when it reaches work only through a variable captured
// by a closure that is re-assigned with a deadline: which of the stored values the closure
// sees is not known.
//
// Under -detach.strict the rule applies to all user code, not only to request scopes; never to
// generated files or to dependencies. The older detach idiom — a context.Background() into which values of the
// request ctx are copied — is not recognised: telling it apart from an unrelated root context
// is not precise enough. In a request scope the ctxbackground rule reports it.
package detach
