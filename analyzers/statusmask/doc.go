// Package statusmask defines an Analyzer that reports, in request scopes, a deadline or
// cancellation error turned into another status code.
//
// # Analyzer statusmask
//
// statusmask: report deadline errors translated into another gRPC or connect code
//
// "Handle DeadlineExceeded precisely … Do not translate it to Internal; keep the code so callers
// and retry policies can tell time-outs from bugs." grpc-go keeps the code of an error a handler
// returns as it is (a status error, or a context error through status.FromContextError), so the
// bug is the explicit translation. In a request scope, statusmask reports status.Error, Errorf,
// New and Newf, and connect.NewError, with a constant code other than DeadlineExceeded,
// Canceled and OK, whose message or cause is built from an error that can be the request's
// deadline or cancellation: the error of a call (a gRPC client call, a database/sql …Context
// method, a function of the module; an errgroup's Wait when the group was made with
// errgroup.WithContext from it and its ctx is used) given the request's ctx or one derived from it (one with a
// deadline of its own too: when the request's is the earlier, that expiry is the request's; the
// fix checks the request's ctx, so the dependency's own time-out keeps its code), through
// err.Error(), fmt.Sprintf, fmt.Errorf and string
// concatenation — where nothing in the function
// tells the two apart: no status.Code, status.FromError, status.Convert,
// status.FromContextError, errors.Is or errors.As of the error, no connect.CodeOf, no ctx.Err()
// call on the way to the translation (a ctx.Err() on another way — a watch loop's return after
// it, or on a goroutine the handler starts — tells nothing of this error), and no function of
// the module that takes the error and returns an error or a code (a
// mapping helper, trusted) — but a function of the package that gives the error a constant code
// itself, with nothing in it telling a deadline apart (func toStatus(err error) error whose
// default case is status.Errorf(codes.Internal, …, err)), is reported there, at its
// translation, once however many scopes hand it such an error (a generic one by its generic
// body; its calls of itself tell nothing apart). A sentinel of the module's own recognised by
// errors.Is — alone, or one of several (errors.Is(err, A) || errors.Is(err, B), a case listing
// both) — tells apart the branch where it holds, not the way past it. A branch where the error's text holds words a deadline's text lacks
// (strings.Contains(err.Error(), "NotFound"), HasPrefix, HasSuffix, EqualFold, ==) translates
// that error, not a deadline; so does one where its text was found to hold neither a deadline's
// nor a cancellation's words (past Contains(…, "deadline") || Contains(…, "canceled")); nor is
// an error known to be nil there (if err != nil { return }
// before it) an error of the call's. A call of a function of the module known to do nothing with its ctx
// makes no such error — one that only lends the request's trace to work on a budget of its own
// (tracing.CopyTraceContext(context.Background(), ctx), whose result derives from its other
// ctx) included. The fix, offered where it is mechanical (a unary handler returning the
// translation), returns the ctx's error first. The request ctx's own error — ctx.Err() of the
// request's ctx, or of one derived from it with no deadline of its own — given another code is
// reported wherever it is, also in a function that asks ctx.Err() elsewhere: it is the deadline
// or the cancellation, and keeps its code with status.FromContextError.
//
// For example:
//
//	item, err := s.inventory.Get(ctx, req.GetId())
//	if err != nil {
//		return nil, status.Errorf(codes.Internal, "inventory: %v", err)
//	}
//
// should be:
//
//	if err != nil {
//		if ctx.Err() != nil {
//			return nil, status.FromContextError(ctx.Err()).Err()
//		}
//		return nil, status.Errorf(codes.Internal, "inventory: %v", err)
//	}
package statusmask
