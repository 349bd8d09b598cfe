// Package interceptors holds the lab API's server interceptors.
package interceptors

import (
	"context"
	"log/slog"
	"sync"
	"time"

	"google.golang.org/grpc"

	"example.test/shapes5/internal/specimens"
)

var custody *specimens.Store

// Setup wires the store the interceptors log to; main calls it once.
func Setup(st *specimens.Store) { custody = st }

type orderScoped interface{ GetBookingId() string }

// Custody appends every successful call on an order to the chain-of-custody
// log.
func Custody(ctx context.Context, req any, info *grpc.UnaryServerInfo, handler grpc.UnaryHandler) (any, error) {
	resp, err := handler(ctx, req)
	if o, ok := req.(orderScoped); ok && err == nil {
		_ = custody.Event(context.TODO(), o.GetBookingId(), info.FullMethod) // BUG: ctxbackground
	}
	return resp, err
}

// Trace records which orders a call touched before running it.
func Trace(st *specimens.Store) grpc.UnaryServerInterceptor {
	return func(ctx context.Context, req any, info *grpc.UnaryServerInfo, handler grpc.UnaryHandler) (any, error) {
		if o, ok := req.(orderScoped); ok {
			if err := st.Event(ctx, o.GetBookingId(), "trace:"+info.FullMethod); err != nil { // OK: the request ctx
				return nil, err
			}
		}
		return handler(ctx, req)
	}
}

// Budget gives calls that arrive without a deadline one of d.
func Budget(d time.Duration) grpc.UnaryServerInterceptor {
	return func(ctx context.Context, req any, info *grpc.UnaryServerInfo, handler grpc.UnaryHandler) (any, error) {
		if _, ok := ctx.Deadline(); !ok {
			var cancel context.CancelFunc
			ctx, cancel = context.WithTimeout(ctx, d) // OK: derived from the request ctx
			defer cancel()
		}
		return handler(ctx, req)
	}
}

// Penalty slows down a caller that exceeded its quota once, then lets it in.
func Penalty(over func(method string) bool, wait time.Duration) grpc.UnaryServerInterceptor {
	return func(ctx context.Context, req any, info *grpc.UnaryServerInfo, handler grpc.UnaryHandler) (any, error) {
		if over(info.FullMethod) {
			time.Sleep(wait) // OK: a single penalty sleep, not a loop
		}
		return handler(ctx, req)
	}
}

// StreamGuard refuses streams whose client already went away and logs the
// ones that end with an error.
func StreamGuard(srv any, ss grpc.ServerStream, info *grpc.StreamServerInfo, handler grpc.StreamHandler) error {
	if err := ss.Context().Err(); err != nil {
		return err
	}
	err := handler(srv, ss)
	if err != nil {
		slog.WarnContext(ss.Context(), "stream ended", "method", info.FullMethod, "err", err)
	}
	return err
}

var openStreams sync.Map

// StreamLedger notes every stream in the custody log when it closes.
func StreamLedger(st *specimens.Store) grpc.StreamServerInterceptor {
	return func(srv any, ss grpc.ServerStream, info *grpc.StreamServerInfo, handler grpc.StreamHandler) error {
		openStreams.Store(ss, info.FullMethod)
		defer openStreams.Delete(ss)
		err := handler(srv, ss)
		// the closing entry must land even when the client hung up; two
		// seconds is plenty for one insert
		lctx, cancel := context.WithTimeout(context.WithoutCancel(ss.Context()), 2*time.Second) // OK: bounded, with a reason
		defer cancel()
		_ = st.Event(lctx, info.FullMethod, "stream-closed")
		return err
	}
}
