// Package ctxless defines an Analyzer that reports calls in request scopes that cannot carry
// the request's deadline although a ctx-taking variant exists.
//
// # Analyzer ctxless
//
// ctxless: report ctx-less calls in request scopes that have a ctx-taking variant
//
// A call that takes no context.Context cannot be cancelled when the gRPC caller gives up: a
// slow query, HTTP request, dial or child process in a handler keeps running, and holds its
// connection, after the deadline has passed. In a request scope (a grpc-go or connect-go
// handler, a server interceptor, a function marked //deadlinelint:scope, or a closure or
// goroutine created in one) ctxless reports:
//
//   - database/sql's Query, QueryRow, Exec, Prepare, Ping and Begin on DB, Tx and Stmt
//     (Conn has only the ctx-taking ones);
//   - http.Get, Head, Post and PostForm and the same methods of *http.Client, and
//     http.NewRequest (unless the request is given a ctx with WithContext before use);
//   - net.Dial, net.DialTimeout and the package-level net.LookupHost, LookupIP, ... (their
//     twins are the methods of net.Dialer and net.DefaultResolver);
//   - exec.Command, and time.Sleep, which cannot be cut short when the request is cancelled —
//     a sleep only in a loop that can turn without checking a ctx (a poll, a retry backoff; or
//     the body of a range-over-func loop): a single sleep, a rate limiter's penalty or a settle
//     delay, is deliberate, and a loop whose every turn calls ctx.Err() or waits on ctx.Done()
//     stops at its next turn;
//   - any method M whose receiver also has MContext (or MCtx, go-zero's spelling) taking a
//     ctx followed by M's parameters and returning M's results: drivers, clients and the
//     module's own APIs alike — unless
//     MContext only reads values from its ctx (slog's InfoContext; a method of the module that
//     refers to its ctx only to log or read values, by its body or its fact: a lookup logging
//     its miss with the caller's trace; for an interface, every implementation in sight does
//     so or never refers to it: a logger interface's DebugContext attaching the trace), or
//     returns nothing (glog's Verbose.InfoContext: a twin that cannot tell its caller the ctx
//     cut it short is there for the ctx's values).
//
// For example:
//
//	func (s *Catalog) GetItem(ctx context.Context, req *pb.GetItemRequest) (*pb.Item, error) {
//		row := s.db.QueryRow("SELECT name FROM items WHERE id = $1", req.Id) // reported
//		...
//	}
//
// Where the rewrite is mechanical and the request ctx is in scope at the call, a suggested
// fix passes it: db.QueryContext(ctx, ...), http.NewRequestWithContext(ctx, ...),
// exec.CommandContext(ctx, ...), net.DefaultResolver.LookupHost(ctx, ...). Calls outside
// request scopes (main, constructors, background workers) are not reported, nor calls in one
// that are not the request's work: cleanup as it returns (a deferred call, or one in a deferred
// literal: `defer db.Exec("DELETE FROM locks …")` must run when the request is cancelled too),
// what runs only once its ctx is done or on the way out of a failure, and one-time
// initialisation of state every later request shares (a statement prepared in the server's
// sync.Once or on the first use of its field), which one cancelled request must not break.
//
// One call down too: a function of the package that a request scope hands the request's ctx,
// as its one named ctx parameter (directly, or through such helpers handing it on), is
// reported where it makes the request's I/O without it (db.QueryRow in s.repo.balance(ctx,
// id)), once however many handlers reach it, with a fix passing the parameter. There only I/O
// counts (database/sql, HTTP requests, DNS lookups, MContext twins), not a sleep, a dial or a
// process, which helpers make on purpose; nor a helper given a ctx only by start-up code or
// workers, one whose ctx is _ or that has two, the ctx-taking variant written as a call of its
// twin, or a helper of another package, whose callers' packages cannot report a line of it.
package ctxless
