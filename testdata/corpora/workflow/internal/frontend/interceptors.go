// Package frontend is the public workflow API.
package frontend

import (
	"context"
	"encoding/json"
	"net/http"
	"sync"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/metadata"
	"google.golang.org/grpc/status"

	"example.test/workflow/internal/obs"
)

// NamespaceInterceptor copies the namespace header into the ctx.
func NamespaceInterceptor(ctx context.Context, req any, info *grpc.UnaryServerInfo, handler grpc.UnaryHandler) (any, error) {
	md, _ := metadata.FromIncomingContext(ctx)
	if ns := md.Get("x-namespace"); len(ns) > 0 {
		ctx = obs.WithNamespace(ctx, ns[0])
	}
	return handler(ctx, req)
}

// RateLimiter limits requests per namespace.
type RateLimiter struct {
	mu      sync.Mutex
	tokens  map[string]int
	penalty time.Duration
}

// NewRateLimiter makes a limiter.
func NewRateLimiter() *RateLimiter {
	return &RateLimiter{tokens: map[string]int{}, penalty: 20 * time.Millisecond}
}

// Unary is the limiter's interceptor.
func (l *RateLimiter) Unary(ctx context.Context, req any, info *grpc.UnaryServerInfo, handler grpc.UnaryHandler) (any, error) {
	ns := obs.Namespace(ctx)
	l.mu.Lock()
	l.tokens[ns]++
	n := l.tokens[ns]
	l.mu.Unlock()
	if n > 1000 {
		time.Sleep(l.penalty) // OK: ctxless — one deliberate penalty sleep
	}
	return handler(ctx, req)
}

// KeyVerifier verifies bearer tokens.
type KeyVerifier interface {
	Verify(ctx context.Context, token string) (string, error)
}

// jwksVerifier fetches signing keys from the identity provider.
type jwksVerifier struct {
	url    string
	client *http.Client
}

func (v *jwksVerifier) Verify(ctx context.Context, token string) (string, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, v.url+"?kid="+token[:min(8, len(token))], nil)
	if err != nil {
		return "", err
	}
	resp, err := v.client.Do(req)
	if err != nil {
		return "", err
	}
	defer resp.Body.Close()
	var out struct{ Subject string }
	return out.Subject, json.NewDecoder(resp.Body).Decode(&out)
}

// Auth authenticates callers.
type Auth struct{ v KeyVerifier }

// NewAuth makes the interceptor.
func NewAuth(jwksURL string) *Auth { return &Auth{v: &jwksVerifier{url: jwksURL, client: http.DefaultClient}} }

// Unary is the auth interceptor.
func (a *Auth) Unary(ctx context.Context, req any, info *grpc.UnaryServerInfo, handler grpc.UnaryHandler) (any, error) {
	md, _ := metadata.FromIncomingContext(ctx)
	tok := md.Get("authorization")
	if len(tok) == 0 {
		return nil, status.Error(codes.Unauthenticated, "no token")
	}
	sub, err := a.v.Verify(ctx, tok[0])
	if err != nil {
		return nil, status.Errorf(codes.Unauthenticated, "verify token: %v", err) // BUG: statusmask — a JWKS fetch timing out becomes Unauthenticated
	}
	obs.L.Info(ctx, "authenticated", "sub", sub)
	return handler(ctx, req)
}

// StreamLogger logs streams.
func StreamLogger(srv any, ss grpc.ServerStream, info *grpc.StreamServerInfo, handler grpc.StreamHandler) error {
	obs.L.Info(context.TODO(), "stream", "method", info.FullMethod) // OK: ctxbackground — a root only logged with
	return handler(srv, ss)
}
