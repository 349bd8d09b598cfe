// Package rpcmw holds the gRPC server interceptors shared by the services.
package rpcmw

import (
	"context"
	"log/slog"
	"runtime/debug"
	"sync"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/metadata"
	"google.golang.org/grpc/status"

	"example.test/torture/internal/ctxkit"
)

// Limiter is a per-key token bucket.
type Limiter struct {
	mu   sync.Mutex
	rate time.Duration
	next map[string]time.Time
}

// NewLimiter allows one call per key every rate.
func NewLimiter(rate time.Duration) *Limiter {
	return &Limiter{rate: rate, next: make(map[string]time.Time)}
}

// Wait blocks until key may proceed or ctx is done.
func (l *Limiter) Wait(ctx context.Context, key string) error {
	l.mu.Lock()
	now := time.Now()
	at := l.next[key]
	if at.Before(now) {
		at = now
	}
	l.next[key] = at.Add(l.rate)
	l.mu.Unlock()
	if d := time.Until(at); d > 0 {
		return ctxkit.Sleep(ctx, d)
	}
	return nil
}

func first(v []string) string {
	if len(v) == 0 {
		return ""
	}
	return v[0]
}

// UnaryTenant wraps the request context with the caller's tenant.
func UnaryTenant() grpc.UnaryServerInterceptor {
	return func(ctx context.Context, req any, info *grpc.UnaryServerInfo, handler grpc.UnaryHandler) (any, error) {
		md, _ := metadata.FromIncomingContext(ctx)
		return handler(ctxkit.WithTenant(ctx, first(md.Get("x-tenant"))), req) // OK
	}
}

// UnaryRateLimit throttles callers per method.
func UnaryRateLimit(l *Limiter) grpc.UnaryServerInterceptor {
	return func(ctx context.Context, req any, info *grpc.UnaryServerInfo, handler grpc.UnaryHandler) (any, error) {
		if err := l.Wait(context.Background(), info.FullMethod); err != nil { // BUG: ctxbackground
			return nil, status.Error(codes.ResourceExhausted, "rate limited")
		}
		return handler(ctx, req)
	}
}

// UnaryRecover turns handler panics into Internal errors.
func UnaryRecover(ctx context.Context, req any, info *grpc.UnaryServerInfo, handler grpc.UnaryHandler) (resp any, err error) {
	defer func() {
		if r := recover(); r != nil {
			slog.ErrorContext(ctx, "handler panic", "method", info.FullMethod, "panic", r, "stack", string(debug.Stack())) // OK
			resp, err = nil, status.Error(codes.Internal, "internal error")
		}
	}()
	return handler(ctx, req)
}

// tenantStream overrides Context so that streaming handlers see the tenant.
type tenantStream struct {
	grpc.ServerStream
	ctx context.Context
}

func (t tenantStream) Context() context.Context { return t.ctx }

// StreamTenant is the streaming counterpart of UnaryTenant.
func StreamTenant() grpc.StreamServerInterceptor {
	return func(srv any, ss grpc.ServerStream, info *grpc.StreamServerInfo, handler grpc.StreamHandler) error {
		ctx := ss.Context()
		md, _ := metadata.FromIncomingContext(ctx)
		return handler(srv, tenantStream{ServerStream: ss, ctx: ctxkit.WithTenant(ctx, first(md.Get("x-tenant")))}) // OK
	}
}

// StreamRateLimit throttles stream opens per method.
func StreamRateLimit(l *Limiter) grpc.StreamServerInterceptor {
	return func(srv any, ss grpc.ServerStream, info *grpc.StreamServerInfo, handler grpc.StreamHandler) error {
		if err := l.Wait(ss.Context(), info.FullMethod); err != nil { // OK
			return status.Error(codes.ResourceExhausted, "rate limited")
		}
		return handler(srv, ss)
	}
}
