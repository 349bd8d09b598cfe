// Package ctxflow defines an Analyzer that reports calls in a request scope made with a ctx
// that does not come from the request.
//
// # Analyzer ctxflow
//
// ctxflow: report request-scope calls made with a server-lifetime or package-level ctx
//
// Inside a gRPC handler every ctx-taking call should receive the request's ctx, or a ctx
// derived from it, so that it stops when the caller's deadline passes or the caller goes
// away. A ctx kept in a field of the server (set once, in a constructor or at start-up) or
// in a package-level variable lives as long as the process: a call made with it ignores the
// caller's deadline and cancellation.
//
//	type Server struct {
//		pb.UnimplementedCatalogServer
//		baseCtx context.Context // the server's lifetime
//	}
//
//	func (s *Server) GetItem(ctx context.Context, req *pb.GetItemRequest) (*pb.Item, error) {
//		return s.repo.Load(s.baseCtx, req.Id) // reported
//	}
//
// The finding is reported at the call. A ctx is followed through derivations, phis,
// closures and helpers that return a field or a package-level ctx — in the package, or in
// another package of the module through its Returned fact (lifecycle.Context(),
// s.mgr.Context() on a manager the server holds). Fields of a struct built in the
// handler itself (a per-request state holding ctx) are followed to what was stored in
// them. context.Background() and context.TODO() are ctxbackground's findings, and
// context.WithoutCancel is the detach rule's; a ctx whose origin cannot be told is never
// reported, nor one given to a dial helper that uses its ctx only to dial a connection it
// keeps (grpc.DialContext, or a function of the module that only dials with it and returns or
// stores the connection: a cache of connections to other nodes), which outlives the request,
// nor one given to a function of the package that uses it only to make the lifetime of an
// object, keeping the cancel for the object's Stop (sub.Run(s.ctx) where Run does s.ctx,
// s.cancel = context.WithCancel(ctx)), nor a child of the long-lived ctx whose cancel the
// server keeps, in a field, by the work's key in a map it holds or in a sync.Map that is not
// a local, directly or through a function of the package it hands the cancel to (wctx, cancel
// := context.WithCancel(s.root); s.workers[id] = cancel: a worker StopWorker ends;
// s.cancels.Store(id, cancel): a connection's timer its Close ends), nor one
// given to a job runner that derives each job's ctx from it and keeps the job's cancel by its
// id: what the object does is its own work. A callee that only starts goroutines with the ctx
// is still reported (a watch registered until the ctx ends). Nor is context.AfterFunc(s.base,
// cancel), which only watches the lifetime to stop the handler's own work at shutdown. Nor is a call whose callee refers to the ctx only to carry its
// values (logs with it, reads its trace), or, through an interface, when every value the
// receiver may hold is in sight and does so: nothing there waits on the ctx. A callee that
// never refers to its ctx (a stub) is still reported: what it means to do with one is not
// known. Nor is a call that hands its callee the request too — the handler's stream, or a ctx
// of the request — when the callee, in its own body, waits on that request's end beside the
// long-lived ctx (Sync(s.life, stream) selecting on <-ctx.Done() and
// <-stream.Context().Done()): stopping with the server is its choice, and the client leaving
// ends it as well. A callee that only reads the stream's metadata, or waits on it in a
// goroutine it starts, does not.
package ctxflow
