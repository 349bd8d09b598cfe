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
// when that identifier is in scope. Constructors, main, Close and background workers are not
// request scopes and are not reported. Work that must outlive the request should use
// context.WithoutCancel(ctx) with its own timeout (see the detach rule).
package ctxbackground
