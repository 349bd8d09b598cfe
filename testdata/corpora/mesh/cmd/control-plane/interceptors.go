package main

import (
	"context"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	"example.test/mesh/internal/telemetry"
)

var rpcLatency = telemetry.NewHistogram("grpc_server_handling_seconds")

func unaryInterceptor(log *telemetry.Logger) grpc.UnaryServerInterceptor {
	return func(ctx context.Context, req any, info *grpc.UnaryServerInfo, handler grpc.UnaryHandler) (resp any, err error) {
		ctx, span := telemetry.StartSpan(ctx, info.FullMethod)
		defer span.End()
		defer func() {
			if r := recover(); r != nil {
				log.Error(context.Background(), "panic in handler", "method", info.FullMethod, "panic", r) // OK: ctxbackground — a root used only to log with, in a deferred recover
				err = status.Error(codes.Internal, "internal error")
			}
		}()
		start := time.Now()
		resp, err = handler(ctx, req)
		rpcLatency.Record(context.Background(), time.Since(start).Seconds(), info.FullMethod) // OK: ctxbackground — a histogram Record only reads values from its ctx
		if err != nil {
			log.Debug(ctx, "rpc failed", "method", info.FullMethod, "code", status.Code(err))
		}
		return resp, err
	}
}

func streamInterceptor(log *telemetry.Logger) grpc.StreamServerInterceptor {
	return func(srv any, ss grpc.ServerStream, info *grpc.StreamServerInfo, handler grpc.StreamHandler) error {
		start := time.Now()
		err := handler(srv, ss)
		log.Info(ss.Context(), "stream closed", "method", info.FullMethod, "dur", time.Since(start))
		return err
	}
}
