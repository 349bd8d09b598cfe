package middleware

import (
	"context"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/grpc/status"

	"example.test/gateway/internal/metrics"
)

// exportCtx is the context metric pushes run under.
var exportCtx = context.Background() // OK

// Metrics records the latency and code of every unary call.
func Metrics(rec *metrics.Recorder) grpc.UnaryServerInterceptor {
	return func(ctx context.Context, req any, info *grpc.UnaryServerInfo, handler grpc.UnaryHandler) (any, error) {
		start := time.Now()
		resp, err := handler(ctx, req)
		rec.Observe(exportCtx, info.FullMethod, status.Code(err), time.Since(start)) // BUG: ctxflow
		return resp, err
	}
}

// StreamMetrics records stream latency and message counts.
func StreamMetrics(rec *metrics.Recorder) grpc.StreamServerInterceptor {
	return func(srv any, ss grpc.ServerStream, info *grpc.StreamServerInfo, handler grpc.StreamHandler) error {
		start := time.Now()
		ms := &meteredStream{ServerStream: ss, method: info.FullMethod, rec: rec}
		err := handler(srv, ms)
		ms.flush()
		rec.Observe(ms.Context(), info.FullMethod, status.Code(err), time.Since(start)) // OK
		return err
	}
}
