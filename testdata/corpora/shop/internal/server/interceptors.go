package server

import (
	"context"
	"log/slog"
	"runtime/debug"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	"example.test/shop/internal/telemetry"
)

// UnaryDeadlineCap ensures no unary handler runs longer than max, whether or
// not the client sent a deadline.
func UnaryDeadlineCap(max time.Duration) grpc.UnaryServerInterceptor {
	return func(ctx context.Context, req any, _ *grpc.UnaryServerInfo, handler grpc.UnaryHandler) (any, error) {
		if dl, ok := ctx.Deadline(); !ok || time.Until(dl) > max {
			var cancel context.CancelFunc
			ctx, cancel = context.WithTimeout(ctx, max)
			defer cancel()
		}
		return handler(ctx, req)
	}
}

func UnaryObserve(log *slog.Logger, meter telemetry.Meter) grpc.UnaryServerInterceptor {
	return func(ctx context.Context, req any, info *grpc.UnaryServerInfo, handler grpc.UnaryHandler) (resp any, err error) {
		start := time.Now()
		defer func() {
			if r := recover(); r != nil {
				log.ErrorContext(ctx, "panic in handler", "method", info.FullMethod, "panic", r, "stack", string(debug.Stack()))
				err = status.Error(codes.Internal, "internal error")
			}
			code := status.Code(err)
			meter.Add(ctx, "rpc_total."+code.String(), 1)
			meter.Observe(ctx, "rpc_ms."+info.FullMethod, float64(time.Since(start).Milliseconds()))
			log.InfoContext(ctx, "rpc", "method", info.FullMethod, "code", code, "dur", time.Since(start))
		}()
		return handler(ctx, req)
	}
}

type ctxStream struct {
	grpc.ServerStream
	ctx context.Context
}

func (s *ctxStream) Context() context.Context { return s.ctx }

// StreamTrace starts a span for each stream and hands the handler a stream
// whose Context carries it.
func StreamTrace(tracer telemetry.Tracer, log *slog.Logger) grpc.StreamServerInterceptor {
	return func(srv any, ss grpc.ServerStream, info *grpc.StreamServerInfo, handler grpc.StreamHandler) error {
		ctx, span := tracer.Start(ss.Context(), info.FullMethod)
		defer span.End()
		err := handler(srv, &ctxStream{ServerStream: ss, ctx: ctx})
		if err != nil {
			span.RecordError(err)
			log.InfoContext(ctx, "stream ended", "method", info.FullMethod, "code", status.Code(err))
		}
		return err
	}
}
