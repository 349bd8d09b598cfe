// Package grpcmw holds the server interceptors of the control-plane API.
package grpcmw

import (
	"context"
	"errors"
	"log/slog"
	"strings"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/metadata"
	"google.golang.org/grpc/status"

	"example.test/operator/internal/authn"
)

// Public lists methods callable without a token.
var Public = map[string]bool{
	"/cluster.v1.ClusterService/RegisterNode":     true,
	"/cluster.v1.ClusterService/GetClusterHealth": true,
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

// UnaryAuth authenticates unary calls.
func UnaryAuth(v *authn.Verifier) grpc.UnaryServerInterceptor {
	return func(ctx context.Context, req any, info *grpc.UnaryServerInfo, handler grpc.UnaryHandler) (any, error) {
		if Public[info.FullMethod] {
			return handler(ctx, req)
		}
		p, err := v.Verify(context.TODO(), bearer(ctx)) // BUG: ctxbackground
		if err != nil {
			if errors.Is(err, authn.ErrUnauthenticated) {
				return nil, status.Error(codes.Unauthenticated, "invalid or missing token")
			}
			return nil, status.Errorf(codes.Unavailable, "verify token: %v", err)
		}
		return handler(authn.WithPrincipal(ctx, p), req)
	}
}

type wrappedStream struct {
	grpc.ServerStream
	ctx context.Context
}

func (w *wrappedStream) Context() context.Context { return w.ctx }

// StreamAuth authenticates streaming calls.
func StreamAuth(v *authn.Verifier) grpc.StreamServerInterceptor {
	return func(srv any, ss grpc.ServerStream, info *grpc.StreamServerInfo, handler grpc.StreamHandler) error {
		ctx := ss.Context()
		p, err := v.Verify(ctx, bearer(ctx)) // OK: the stream's ctx
		if err != nil {
			return status.Error(codes.Unauthenticated, "invalid or missing token")
		}
		return handler(srv, &wrappedStream{ServerStream: ss, ctx: authn.WithPrincipal(ctx, p)})
	}
}

// UnaryDefaultTimeout bounds unary calls that arrive without a deadline.
func UnaryDefaultTimeout(d time.Duration) grpc.UnaryServerInterceptor {
	return func(ctx context.Context, req any, info *grpc.UnaryServerInfo, handler grpc.UnaryHandler) (any, error) {
		if _, ok := ctx.Deadline(); !ok {
			var cancel context.CancelFunc
			ctx, cancel = context.WithTimeout(ctx, d) // OK: derived from the request ctx
			defer cancel()
		}
		return handler(ctx, req)
	}
}

// UnaryLogging logs every unary call with its latency and status code.
func UnaryLogging(log *slog.Logger) grpc.UnaryServerInterceptor {
	return func(ctx context.Context, req any, info *grpc.UnaryServerInfo, handler grpc.UnaryHandler) (any, error) {
		start := time.Now()
		resp, err := handler(ctx, req)
		log.InfoContext(ctx, "rpc", "method", info.FullMethod, "code", status.Code(err).String(), "took", time.Since(start)) // OK
		return resp, err
	}
}
