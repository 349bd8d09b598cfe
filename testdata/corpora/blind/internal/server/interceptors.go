package server

import (
	"context"
	"log/slog"
	"time"

	"example.test/blind/internal/audit"
	"example.test/blind/internal/httpx"
	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/metadata"
	"google.golang.org/grpc/status"
)

// UnaryAuth refuses calls while the authz service is down.
func UnaryAuth(authz *httpx.Client) grpc.UnaryServerInterceptor {
	return func(ctx context.Context, req any, info *grpc.UnaryServerInfo, handler grpc.UnaryHandler) (any, error) {
		if err := authz.Health(context.Background()); err != nil { // BUG: ctxbackground
			return nil, status.Error(codes.Unavailable, "authz unavailable")
		}
		md, _ := metadata.FromIncomingContext(ctx)
		ctx = metadata.NewOutgoingContext(ctx, metadata.Pairs("x-request-id", first(md.Get("x-request-id")))) // OK
		return handler(ctx, req)
	}
}

// UnaryTimeout caps every call at max.
func UnaryTimeout(max time.Duration) grpc.UnaryServerInterceptor {
	return func(ctx context.Context, req any, info *grpc.UnaryServerInfo, handler grpc.UnaryHandler) (any, error) {
		ctx, cancel := context.WithTimeout(ctx, max) // OK
		defer cancel()
		return handler(ctx, req)
	}
}

// UnaryAudit writes an audit row for every call.
func UnaryAudit(w audit.Writer) grpc.UnaryServerInterceptor {
	return func(ctx context.Context, req any, info *grpc.UnaryServerInfo, handler grpc.UnaryHandler) (any, error) {
		resp, err := handler(ctx, req)
		audit.WriteDetached(context.WithoutCancel(ctx), w, audit.Entry{Action: info.FullMethod, At: time.Now()})
		// ^BUG: detach
		return resp, err
	}
}

// StreamAudit writes an audit row when a stream ends.
func StreamAudit(w audit.Writer) grpc.StreamServerInterceptor {
	return func(srv any, ss grpc.ServerStream, info *grpc.StreamServerInfo, handler grpc.StreamHandler) error {
		err := handler(srv, ss)
		// the row must be written even if the client went away; WriteDetached bounds it to 2s
		audit.WriteDetached(context.WithoutCancel(ss.Context()), w, audit.Entry{Action: info.FullMethod, At: time.Now()}) // OK: explained, bounded in the helper
		return err
	}
}

// Limiter is a token bucket shared by all streams.
type Limiter struct{ tokens chan struct{} }

// Wait takes a token or gives up when ctx ends.
func (l *Limiter) Wait(ctx context.Context) error {
	select {
	case <-l.tokens:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// StreamRateLimit admits at most the limiter's rate of new streams.
func StreamRateLimit(l *Limiter) grpc.StreamServerInterceptor {
	return func(srv any, ss grpc.ServerStream, info *grpc.StreamServerInfo, handler grpc.StreamHandler) error {
		if err := l.Wait(context.Background()); err != nil { // BUG: ctxbackground
			return status.Error(codes.ResourceExhausted, "rate limited")
		}
		return handler(srv, ss)
	}
}

// recoverUnary turns panics into INTERNAL errors.
func recoverUnary(ctx context.Context, req any, info *grpc.UnaryServerInfo, handler grpc.UnaryHandler) (resp any, err error) {
	defer func() {
		if r := recover(); r != nil {
			slog.ErrorContext(ctx, "panic", "method", info.FullMethod, "panic", r)
			err = status.Error(codes.Internal, "internal error")
		}
	}()
	return handler(ctx, req)
}

// logUnary logs slow calls.
func logUnary(ctx context.Context, req any, info *grpc.UnaryServerInfo, handler grpc.UnaryHandler) (any, error) {
	start := time.Now()
	resp, err := handler(ctx, req)
	if d := time.Since(start); d > time.Second {
		slog.WarnContext(context.TODO(), "slow call", "method", info.FullMethod, "took", d) // OK: only logged with: the line's values are lost, not a deadline (re-keyed)
	}
	return resp, err
}

// ServerOptions are the interceptors every server uses.
func ServerOptions(authz *httpx.Client, w audit.Writer, l *Limiter) []grpc.ServerOption {
	return []grpc.ServerOption{
		grpc.ChainUnaryInterceptor(recoverUnary, logUnary, UnaryTimeout(10*time.Second), UnaryAuth(authz), UnaryAudit(w)),
		grpc.ChainStreamInterceptor(StreamRateLimit(l), StreamAudit(w)),
	}
}

// NewLimiter returns a limiter refilled every d.
func NewLimiter(burst int, d time.Duration) *Limiter {
	l := &Limiter{tokens: make(chan struct{}, burst)}
	go func() {
		for range time.Tick(d) {
			select {
			case l.tokens <- struct{}{}:
			default:
			}
		}
	}()
	return l
}

func first(v []string) string {
	if len(v) == 0 {
		return ""
	}
	return v[0]
}
