package servenv

import (
	"context"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/grpc/metadata"
)

// UnaryServerInterceptor tags the request with its trace id, logs slow
// calls and counts failures.
func UnaryServerInterceptor(ctx context.Context, req any, info *grpc.UnaryServerInfo, handler grpc.UnaryHandler) (any, error) {
	if ctx == nil {
		ctx = context.Background() // OK: ctxbackground — `if ctx == nil` fallback
	}
	if md, ok := metadata.FromIncomingContext(ctx); ok {
		if ids := md.Get("x-trace-id"); len(ids) > 0 {
			ctx = WithTraceID(ctx, ids[0])
		}
	}
	start := time.Now()
	resp, err := handler(ctx, req)
	if d := time.Since(start); d > SlowQueryThreshold {
		Warningf(ctx, "slow call %s took %v", info.FullMethod, d)
	}
	if err != nil {
		RecordRPCError(context.TODO(), info.FullMethod) // OK: ctxbackground — the root only carries a metric's attributes (OpenTelemetry Add)
	}
	return resp, err
}

// SlowQueryThreshold is the latency above which calls are logged.
var SlowQueryThreshold = 2 * time.Second

// DefaultDeadline returns a unary client interceptor that gives every call
// without a deadline one of d.
func DefaultDeadline(d time.Duration) grpc.UnaryClientInterceptor {
	return func(ctx context.Context, method string, req, reply any, cc *grpc.ClientConn, invoker grpc.UnaryInvoker, opts ...grpc.CallOption) error {
		if _, ok := ctx.Deadline(); !ok {
			var cancel context.CancelFunc
			ctx, cancel = context.WithTimeout(ctx, d)
			defer cancel()
		}
		return invoker(ctx, method, req, reply, cc, opts...)
	}
}
