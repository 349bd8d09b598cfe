// Package auth holds the server interceptors that authenticate requests and
// attach the tenant to the context.
package auth

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strings"

	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/metadata"
	"google.golang.org/grpc/status"

	"example.test/telemetry/pkg/tenant"
	"example.test/telemetry/pkg/util/log"
	"example.test/telemetry/pkg/util/metrics"
)

var authFailures = metrics.NewCounter("auth_failures_total")

// ErrInvalidToken is returned for unknown tokens.
var ErrInvalidToken = errors.New("invalid token")

// Principal is an authenticated caller.
type Principal struct {
	Subject string
	Tenants []string
}

// Validator checks a bearer token.
type Validator interface {
	Validate(ctx context.Context, token string) (Principal, error)
}

// StaticTokens maps tokens to tenants; for single-binary deployments.
type StaticTokens map[string]string

// Validate implements Validator.
func (s StaticTokens) Validate(_ context.Context, token string) (Principal, error) {
	t, ok := s[token]
	if !ok {
		return Principal{}, ErrInvalidToken
	}
	return Principal{Subject: "static", Tenants: []string{t}}, nil
}

// Introspector validates tokens against an OAuth2 introspection endpoint.
type Introspector struct {
	URL    string
	Client *http.Client
}

// Validate implements Validator.
func (i *Introspector) Validate(ctx context.Context, token string) (Principal, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, i.URL, strings.NewReader("token="+token))
	if err != nil {
		return Principal{}, err
	}
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	resp, err := i.Client.Do(req)
	if err != nil {
		return Principal{}, err
	}
	defer resp.Body.Close()
	var body struct {
		Active  bool     `json:"active"`
		Sub     string   `json:"sub"`
		Tenants []string `json:"tenants"`
	}
	if err := json.NewDecoder(resp.Body).Decode(&body); err != nil {
		return Principal{}, fmt.Errorf("introspection: %w", err)
	}
	if !body.Active {
		return Principal{}, ErrInvalidToken
	}
	return Principal{Subject: body.Sub, Tenants: body.Tenants}, nil
}

func bearer(ctx context.Context) string {
	md, _ := metadata.FromIncomingContext(ctx)
	for _, v := range md.Get("authorization") {
		if t, ok := strings.CutPrefix(v, "Bearer "); ok {
			return t
		}
	}
	return ""
}

func allowed(p Principal, org string) bool {
	for _, t := range p.Tenants {
		if t == org || t == "*" {
			return true
		}
	}
	return false
}

// UnaryServerInterceptor authenticates unary calls and puts the tenant in the
// request context.
func UnaryServerInterceptor(v Validator) grpc.UnaryServerInterceptor {
	return func(ctx context.Context, req any, info *grpc.UnaryServerInfo, handler grpc.UnaryHandler) (any, error) {
		org, err := tenant.FromIncoming(ctx)
		if err != nil {
			return nil, status.Error(codes.Unauthenticated, err.Error()) // OK: statusmask — error of a metadata read, no ctx work
		}
		p, err := v.Validate(ctx, bearer(ctx))
		if err != nil {
			authFailures.Add(ctx, 1, info.FullMethod)
			if ctx.Err() != nil {
				return nil, status.FromContextError(ctx.Err()).Err()
			}
			return nil, status.Errorf(codes.Unauthenticated, "auth: %v", err) // OK: statusmask — ctx.Err() checked just above
		}
		if !allowed(p, org) {
			log.Warn(context.TODO(), "tenant not allowed", "subject", p.Subject, "org", org) // OK: ctxbackground — root only carries log values
			return nil, status.Errorf(codes.PermissionDenied, "%s may not access %s", p.Subject, org)
		}
		return handler(tenant.With(ctx, org), req)
	}
}

type tenantStream struct {
	grpc.ServerStream
	ctx context.Context
}

func (s *tenantStream) Context() context.Context { return s.ctx }

// StreamServerInterceptor authenticates streams.
func StreamServerInterceptor(v Validator) grpc.StreamServerInterceptor {
	return func(srv any, ss grpc.ServerStream, info *grpc.StreamServerInfo, handler grpc.StreamHandler) error {
		ctx := ss.Context()
		org, err := tenant.FromIncoming(ctx)
		if err != nil {
			return status.Error(codes.Unauthenticated, err.Error())
		}
		// Streams are long-lived: validate once, with a budget of our own.
		p, err := v.Validate(context.Background(), bearer(ctx)) // BUG: ctxbackground — token introspection (HTTP) runs on a fresh root inside the interceptor
		if err != nil {
			authFailures.Add(ctx, 1, info.FullMethod)
			return status.Errorf(codes.Unauthenticated, "auth: %v", err) // OK: statusmask — error of a call made with a fresh context
		}
		if !allowed(p, org) {
			return status.Errorf(codes.PermissionDenied, "%s may not access %s", p.Subject, org)
		}
		return handler(srv, &tenantStream{ServerStream: ss, ctx: tenant.With(ctx, org)})
	}
}
