// Package rpcx holds the gRPC plumbing shared by the control plane's servers
// and clients: interceptors, dial helpers and error translation.
package rpcx

import (
	"context"
	"fmt"
	"runtime/debug"
	"strings"
	"sync"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/metadata"
	"google.golang.org/grpc/status"

	"example.test/controlplane/internal/telemetry"
)

var log = telemetry.NewLogger("rpcx")

// MethodTimeouts caps the budget of selected methods, whatever the client asked.
type MethodTimeouts map[string]time.Duration

// UnaryTimeout applies the per-method caps.
func (m MethodTimeouts) UnaryTimeout() grpc.UnaryServerInterceptor {
	return func(ctx context.Context, req any, info *grpc.UnaryServerInfo, handler grpc.UnaryHandler) (any, error) {
		if d, ok := m[info.FullMethod]; ok {
			var cancel context.CancelFunc
			ctx, cancel = context.WithTimeout(ctx, d)
			defer cancel()
		}
		return handler(ctx, req)
	}
}

// UnaryLogging logs every call with its latency.
func UnaryLogging(ctx context.Context, req any, info *grpc.UnaryServerInfo, handler grpc.UnaryHandler) (any, error) {
	start := time.Now()
	if md, ok := metadata.FromIncomingContext(ctx); ok {
		if ids := md.Get("x-request-id"); len(ids) > 0 {
			ctx = telemetry.WithRequestID(ctx, ids[0])
		}
	}
	resp, err := handler(ctx, req)
	telemetry.RPCLatency.Record(context.Background(), time.Since(start).Seconds(), telemetry.Attr{Key: "method", Value: info.FullMethod}) // OK?: ctxbackground look-alike — root handed only to a metric instrument's Record (an interface whose every implementation ignores its ctx): carries nothing cancellable. (deadlinelint, precision issue: an OK? — the instrument is an interface of the module whose value comes from out of sight, a parameter or another package's constructor or exported variable, so what its Record/Add does with a ctx is not known; OpenTelemetry's own instruments are known by type)
	log.Debug(ctx, "rpc", "method", info.FullMethod, "code", status.Code(err))
	return resp, err
}

// UnaryRecovery turns a panic into codes.Internal and records it.
func UnaryRecovery(auditor *telemetry.Auditor) grpc.UnaryServerInterceptor {
	return func(ctx context.Context, req any, info *grpc.UnaryServerInfo, handler grpc.UnaryHandler) (resp any, err error) {
		defer func() {
			if r := recover(); r != nil {
				rctx, cancel := context.WithTimeout(context.Background(), 2*time.Second) // OK: ctxbackground look-alike — bounded fresh ctx inside a deferred function (cleanup idiom); the request's ctx may be what broke.
				defer cancel()
				_ = auditor.Record(rctx, telemetry.Entry{Actor: "server", Action: "panic", Object: info.FullMethod})
				telemetry.RPCPanics.Add(ctx, 1)
				log.Error(ctx, "panic in handler", fmt.Errorf("%v", r), "stack", string(debug.Stack()))
				err = status.Errorf(codes.Internal, "internal error")
			}
		}()
		return handler(ctx, req)
	}
}

// Verifier checks bearer tokens against the issuer's key set.
type Verifier struct {
	issuer string
	keys   func() (map[string][]byte, error)
}

// NewVerifier returns a Verifier whose key set is fetched once, on first use.
func NewVerifier(issuer string, fetch func(ctx context.Context, issuer string) (map[string][]byte, error)) *Verifier {
	v := &Verifier{issuer: issuer}
	v.keys = sync.OnceValues(func() (map[string][]byte, error) {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		return fetch(ctx, issuer)
	})
	return v
}

func (v *Verifier) verify(ctx context.Context, token string) (string, error) {
	keys, err := v.keys() // fetched once, under sync.OnceValues
	if err != nil {
		return "", err
	}
	kid, subject, ok := strings.Cut(token, ".")
	if !ok {
		return "", fmt.Errorf("malformed token")
	}
	if _, ok := keys[kid]; !ok {
		return "", fmt.Errorf("unknown key %q", kid)
	}
	log.Debug(ctx, "token verified", "subject", subject)
	return subject, nil
}

type subjectKey struct{}

// Subject returns the authenticated subject.
func Subject(ctx context.Context) string {
	s, _ := ctx.Value(subjectKey{}).(string)
	return s
}

// UnaryAuth authenticates the caller.
func (v *Verifier) UnaryAuth(ctx context.Context, req any, info *grpc.UnaryServerInfo, handler grpc.UnaryHandler) (any, error) {
	ctx, err := v.authenticate(ctx) // OK: ctxbackground look-alike — 2 calls down, verify's key set is fetched on a fresh bounded ctx inside sync.OnceValues: one-time shared init, not this request's work.
	if err != nil {
		return nil, err
	}
	return handler(ctx, req)
}

// StreamAuth authenticates the caller of a streaming method.
func (v *Verifier) StreamAuth(srv any, ss grpc.ServerStream, info *grpc.StreamServerInfo, handler grpc.StreamHandler) error {
	ctx, err := v.authenticate(ss.Context())
	if err != nil {
		return err
	}
	return handler(srv, &wrappedStream{ServerStream: ss, ctx: ctx})
}

func (v *Verifier) authenticate(ctx context.Context) (context.Context, error) {
	md, _ := metadata.FromIncomingContext(ctx)
	auth := md.Get("authorization")
	if len(auth) == 0 {
		return nil, status.Error(codes.Unauthenticated, "missing bearer token")
	}
	subject, err := v.verify(ctx, strings.TrimPrefix(auth[0], "Bearer "))
	if err != nil {
		return nil, status.Errorf(codes.Unauthenticated, "invalid token: %v", err)
	}
	return context.WithValue(ctx, subjectKey{}, subject), nil
}

type wrappedStream struct {
	grpc.ServerStream
	ctx context.Context
}

func (w *wrappedStream) Context() context.Context { return w.ctx }
