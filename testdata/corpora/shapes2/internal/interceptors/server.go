// Package interceptors holds the server and client interceptors.
package interceptors

import (
	"context"
	"sync/atomic"
	"time"

	"google.golang.org/grpc"

	"example.test/shapes2/internal/lifecycle"
	"example.test/shapes2/internal/store"
)

// Limiter is a token bucket.
type Limiter struct{ tokens atomic.Int64 }

// Allow takes a token if there is one.
func (l *Limiter) Allow() bool { return l.tokens.Add(-1) >= 0 }

// Audit logs every unary call.
func Audit(st *store.Store) grpc.UnaryServerInterceptor {
	return func(ctx context.Context, req any, info *grpc.UnaryServerInfo, handler grpc.UnaryHandler) (any, error) {
		_ = st.Log(context.Background(), "call "+info.FullMethod) // BUG: ctxbackground
		resp, err := handler(ctx, req)
		_ = st.Log(ctx, "done "+info.FullMethod) // OK
		return resp, err
	}
}

// Throttle waits for a token before calling the handler.
func Throttle(l *Limiter) grpc.UnaryServerInterceptor {
	return func(ctx context.Context, req any, info *grpc.UnaryServerInfo, handler grpc.UnaryHandler) (any, error) {
		for !l.Allow() {
			time.Sleep(10 * time.Millisecond) // BUG: ctxless
		}
		return handler(ctx, req)
	}
}

// ThrottleCtx waits for a token, giving up with the caller.
func ThrottleCtx(l *Limiter) grpc.UnaryServerInterceptor {
	return func(ctx context.Context, req any, info *grpc.UnaryServerInfo, handler grpc.UnaryHandler) (any, error) {
		for !l.Allow() {
			select {
			case <-ctx.Done():
				return nil, ctx.Err()
			case <-time.After(10 * time.Millisecond): // OK
			}
		}
		return handler(ctx, req)
	}
}

// StreamAudit logs every stream.
func StreamAudit(st *store.Store) grpc.StreamServerInterceptor {
	return func(srv any, ss grpc.ServerStream, info *grpc.StreamServerInfo, handler grpc.StreamHandler) error {
		_ = st.Log(ss.Context(), "stream "+info.FullMethod) // OK
		err := handler(srv, ss)
		_ = st.Log(context.WithoutCancel(ss.Context()), "stream done "+info.FullMethod)
		// ^BUG: detach
		return err
	}
}

// StreamQuota charges a stream against the process-wide quota.
func StreamQuota(st *store.Store) grpc.StreamServerInterceptor {
	return func(srv any, ss grpc.ServerStream, info *grpc.StreamServerInfo, handler grpc.StreamHandler) error {
		if err := st.Reserve(lifecycle.Context(), "quota:"+info.FullMethod, "stream"); err != nil { // BUG: ctxflow
			return err
		}
		return handler(srv, ss)
	}
}

// recordMethod is a named unary interceptor.
func recordMethod(ctx context.Context, req any, info *grpc.UnaryServerInfo, handler grpc.UnaryHandler) (any, error) {
	st := current.Load()
	if st != nil {
		_ = st.Log(context.TODO(), "method "+info.FullMethod) // BUG: ctxbackground
	}
	return handler(ctx, req)
}

var current atomic.Pointer[store.Store]

// Record returns the named interceptor recording into st.
func Record(st *store.Store) grpc.UnaryServerInterceptor {
	current.Store(st)
	return recordMethod
}
