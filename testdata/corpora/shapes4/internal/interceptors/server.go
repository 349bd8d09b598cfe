// Package interceptors holds the server interceptors of dispatchd.
package interceptors

import (
	"context"
	"log/slog"
	"sync"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	"example.test/shapes4/internal/tripstore"
)

// Limiter is a token bucket per method.
type Limiter struct {
	mu     sync.Mutex
	rate   int
	tokens map[string]int
}

// NewLimiter returns a limiter allowing rate calls per method per refill.
func NewLimiter(rate int) *Limiter {
	return &Limiter{rate: rate, tokens: map[string]int{}}
}

// TryTake takes a token of method, if one is left.
func (l *Limiter) TryTake(method string) bool {
	l.mu.Lock()
	defer l.mu.Unlock()
	n, ok := l.tokens[method]
	if !ok {
		n = l.rate
	}
	if n == 0 {
		return false
	}
	l.tokens[method] = n - 1
	return true
}

// Refill puts every bucket back to full; the server calls it once a second.
func (l *Limiter) Refill() {
	l.mu.Lock()
	defer l.mu.Unlock()
	clear(l.tokens)
}

// Throttle makes each call wait for a token of its method.
func Throttle(l *Limiter) grpc.UnaryServerInterceptor {
	return func(ctx context.Context, req any, info *grpc.UnaryServerInfo, handler grpc.UnaryHandler) (any, error) {
		for !l.TryTake(info.FullMethod) {
			time.Sleep(20 * time.Millisecond) // BUG: ctxless
		}
		return handler(ctx, req)
	}
}

// Budget caps the time any call may take.
func Budget(limit time.Duration) grpc.UnaryServerInterceptor {
	return func(ctx context.Context, req any, info *grpc.UnaryServerInfo, handler grpc.UnaryHandler) (any, error) {
		ctx, cancel := context.WithTimeout(ctx, limit) // OK: derived from the request ctx
		defer cancel()
		return handler(ctx, req)
	}
}

// Audit keeps an outbox row per call.
func Audit(st *tripstore.Store) grpc.UnaryServerInterceptor {
	return func(ctx context.Context, req any, info *grpc.UnaryServerInfo, handler grpc.UnaryHandler) (any, error) {
		resp, err := handler(ctx, req)
		if aerr := st.Append(context.Background(), "rpc", info.FullMethod); aerr != nil { // BUG: ctxbackground
			slog.WarnContext(ctx, "audit", "method", info.FullMethod, "err", aerr)
		}
		return resp, err
	}
}

// Admit rejects calls arriving while the server drains. It keeps the caller's deadline.
func Admit(draining func() bool) grpc.UnaryServerInterceptor {
	return func(ctx context.Context, req any, info *grpc.UnaryServerInfo, handler grpc.UnaryHandler) (any, error) {
		if draining() {
			return nil, status.Error(codes.Unavailable, "draining")
		}
		return handler(ctx, req) // OK: the request ctx
	}
}

// procCtx is the process context the stream interceptors log against; main sets it.
var procCtx context.Context

// outbox is where the stream interceptors write; main sets it.
var outbox *tripstore.Store

// Setup hands the interceptors the process context and the outbox.
func Setup(ctx context.Context, st *tripstore.Store) {
	procCtx = ctx
	outbox = st
}

// StreamOpened is a stream interceptor recording every stream that opens.
func StreamOpened(srv any, ss grpc.ServerStream, info *grpc.StreamServerInfo, handler grpc.StreamHandler) error {
	if outbox != nil {
		_ = outbox.Append(procCtx, "stream.opened", info.FullMethod) // BUG: ctxflow
	}
	return handler(srv, ss)
}

// StreamClosed records every stream that ends, with the stream's own ctx.
func StreamClosed(st *tripstore.Store) grpc.StreamServerInterceptor {
	return func(srv any, ss grpc.ServerStream, info *grpc.StreamServerInfo, handler grpc.StreamHandler) error {
		err := handler(srv, ss)
		// the row must be written for streams the client cancelled too; one insert, bounded
		cctx, cancel := context.WithTimeout(context.WithoutCancel(ss.Context()), time.Second) // OK: detached with a bound and a reason
		defer cancel()
		_ = st.Append(cctx, "stream.closed", info.FullMethod)
		return err
	}
}

// StreamCheck rejects streams of callers without quota, using the stream's ctx.
func StreamCheck(st *tripstore.Store) grpc.StreamServerInterceptor {
	return func(srv any, ss grpc.ServerStream, info *grpc.StreamServerInfo, handler grpc.StreamHandler) error {
		if err := st.Append(ss.Context(), "stream.check", info.FullMethod); err != nil { // OK: the stream's ctx
			return err
		}
		return handler(srv, ss)
	}
}
