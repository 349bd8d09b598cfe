// Package rpcx holds the gRPC server middleware shared by the platform's
// services: logging, panic recovery, deadline capping and authentication.
package rpcx

import (
	"context"
	"log/slog"
	"runtime/debug"
	"strings"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/metadata"
	"google.golang.org/grpc/status"

	"example.test/mature/internal/platform/authn"
)

// TokenVerifier checks a bearer token. *authn.Verifier implements it.
type TokenVerifier interface {
	Verify(ctx context.Context, token string) (authn.Claims, error)
}

type claimsKey struct{}

// ClaimsFrom returns the caller's verified claims, if the auth interceptor ran.
func ClaimsFrom(ctx context.Context) (authn.Claims, bool) {
	c, ok := ctx.Value(claimsKey{}).(authn.Claims)
	return c, ok
}

func withClaims(ctx context.Context, c authn.Claims) context.Context {
	return context.WithValue(ctx, claimsKey{}, c)
}

// publicMethods need no token: health checks and reflection.
var publicMethods = []string{
	"/grpc.health.v1.Health/",
	"/grpc.reflection.",
}

func isPublic(fullMethod string) bool {
	for _, p := range publicMethods {
		if strings.HasPrefix(fullMethod, p) {
			return true
		}
	}
	return false
}

func bearerToken(ctx context.Context) (string, error) {
	md, ok := metadata.FromIncomingContext(ctx) // OK
	if !ok {
		return "", status.Error(codes.Unauthenticated, "missing metadata")
	}
	vals := md.Get("authorization")
	if len(vals) == 0 {
		return "", status.Error(codes.Unauthenticated, "missing authorization header")
	}
	tok, ok := strings.CutPrefix(vals[0], "Bearer ")
	if !ok {
		return "", status.Error(codes.Unauthenticated, "authorization is not a bearer token")
	}
	return tok, nil
}

func authenticate(ctx context.Context, v TokenVerifier) (authn.Claims, error) {
	tok, err := bearerToken(ctx)
	if err != nil {
		return authn.Claims{}, err
	}
	c, err := v.Verify(ctx, tok)
	if err != nil {
		return authn.Claims{}, status.Error(codes.Unauthenticated, "invalid token")
	}
	return c, nil
}

// UnaryAuth rejects unary calls that carry no valid bearer token.
func UnaryAuth(v TokenVerifier) grpc.UnaryServerInterceptor {
	return func(ctx context.Context, req any, info *grpc.UnaryServerInfo, handler grpc.UnaryHandler) (any, error) {
		if isPublic(info.FullMethod) {
			return handler(ctx, req)
		}
		tok, err := bearerToken(ctx) // OK
		if err != nil {
			return nil, err
		}
		claims, err := v.Verify(context.Background(), tok) // BUG: ctxbackground
		if err != nil {
			return nil, status.Error(codes.Unauthenticated, "invalid token")
		}
		return handler(withClaims(ctx, claims), req)
	}
}

// StreamAuth is UnaryAuth for streaming calls.
func StreamAuth(v TokenVerifier) grpc.StreamServerInterceptor {
	return func(srv any, ss grpc.ServerStream, info *grpc.StreamServerInfo, handler grpc.StreamHandler) error {
		if isPublic(info.FullMethod) {
			return handler(srv, ss)
		}
		claims, err := authenticate(ss.Context(), v) // OK
		if err != nil {
			return err
		}
		return handler(srv, &authedStream{ServerStream: ss, ctx: withClaims(ss.Context(), claims)})
	}
}

// authedStream carries the verified claims in the stream's context.
type authedStream struct {
	grpc.ServerStream
	ctx context.Context
}

func (s *authedStream) Context() context.Context { return s.ctx }

// UnaryDeadlineCap bounds every unary call by limit, whatever the client
// asked for: a caller without a deadline must not hold resources forever.
func UnaryDeadlineCap(limit time.Duration) grpc.UnaryServerInterceptor {
	return func(ctx context.Context, req any, info *grpc.UnaryServerInfo, handler grpc.UnaryHandler) (any, error) {
		ctx, cancel := context.WithTimeout(ctx, limit) // OK
		defer cancel()
		return handler(ctx, req)
	}
}

// UnaryLogging logs every unary call with its duration and status code.
func UnaryLogging(log *slog.Logger) grpc.UnaryServerInterceptor {
	return func(ctx context.Context, req any, info *grpc.UnaryServerInfo, handler grpc.UnaryHandler) (any, error) {
		start := time.Now()
		resp, err := handler(ctx, req)
		logCall(ctx, log, info.FullMethod, start, err)
		return resp, err
	}
}

// StreamLogging logs every streaming call when it ends.
func StreamLogging(log *slog.Logger) grpc.StreamServerInterceptor {
	return func(srv any, ss grpc.ServerStream, info *grpc.StreamServerInfo, handler grpc.StreamHandler) error {
		start := time.Now()
		err := handler(srv, ss)
		logCall(ss.Context(), log, info.FullMethod, start, err)
		return err
	}
}

func logCall(ctx context.Context, log *slog.Logger, method string, start time.Time, err error) {
	level := slog.LevelInfo
	if err != nil {
		level = slog.LevelWarn
	}
	attrs := []slog.Attr{
		slog.String("method", method),
		slog.Duration("elapsed", time.Since(start)),
		slog.String("code", status.Code(err).String()),
	}
	if dl, ok := ctx.Deadline(); ok {
		attrs = append(attrs, slog.Duration("budget_left", time.Until(dl)))
	}
	log.LogAttrs(ctx, level, "rpc", attrs...) // OK
}

// UnaryRecover turns a panicking handler into an Internal error.
func UnaryRecover(log *slog.Logger) grpc.UnaryServerInterceptor {
	return func(ctx context.Context, req any, info *grpc.UnaryServerInfo, handler grpc.UnaryHandler) (resp any, err error) {
		defer func() {
			if r := recover(); r != nil {
				log.ErrorContext(ctx, "handler panicked", "method", info.FullMethod, "panic", r, "stack", string(debug.Stack()))
				err = status.Error(codes.Internal, "internal error")
			}
		}()
		return handler(ctx, req)
	}
}

// Probe calls handler once with a budget of its own. Services use it at
// start-up to fail fast when a dependency a handler needs is misconfigured.
func Probe(handler grpc.UnaryHandler, req any, budget time.Duration) error {
	ctx, cancel := context.WithTimeout(context.Background(), budget) // OK
	defer cancel()
	_, err := handler(ctx, req)
	return err
}
