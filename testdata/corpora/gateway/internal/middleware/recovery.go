package middleware

import (
	"context"
	"log"
	"runtime/debug"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	"example.test/gateway/internal/crash"
)

// UnaryRecovery turns a panicking handler into codes.Internal and reports the
// panic to the error tracker.
func UnaryRecovery(r *crash.Reporter) grpc.UnaryServerInterceptor {
	return func(ctx context.Context, req any, info *grpc.UnaryServerInfo, handler grpc.UnaryHandler) (resp any, err error) {
		defer func() {
			p := recover()
			if p == nil {
				return
			}
			ev := crash.NewEvent(info.FullMethod, p, debug.Stack())
			if rerr := r.Report(context.Background(), ev); rerr != nil { // BUG: ctxbackground
				log.Printf("recovery: report panic in %s: %v", info.FullMethod, rerr)
			}
			resp, err = nil, status.Errorf(codes.Internal, "internal error (request %s)", RequestID(ctx))
		}()
		return handler(ctx, req)
	}
}

// StreamRecovery is UnaryRecovery for streams.
func StreamRecovery(r *crash.Reporter) grpc.StreamServerInterceptor {
	return func(srv any, ss grpc.ServerStream, info *grpc.StreamServerInfo, handler grpc.StreamHandler) (err error) {
		defer func() {
			p := recover()
			if p == nil {
				return
			}
			ev := crash.NewEvent(info.FullMethod, p, debug.Stack())
			rctx, cancel := context.WithTimeout(context.WithoutCancel(ss.Context()), 2*time.Second)
			// ^BUG: detach
			defer cancel()
			if rerr := r.Report(rctx, ev); rerr != nil {
				log.Printf("recovery: report panic in %s: %v", info.FullMethod, rerr)
			}
			err = status.Error(codes.Internal, "internal error")
		}()
		return handler(srv, ss)
	}
}

// RecoverOnly is the bare recovery used in front of the health service, which
// must never depend on the tracker.
func RecoverOnly(ctx context.Context, req any, info *grpc.UnaryServerInfo, handler grpc.UnaryHandler) (resp any, err error) {
	defer func() {
		if p := recover(); p != nil {
			log.Printf("recovered panic in %s: %v\n%s", info.FullMethod, p, debug.Stack())
			err = status.Error(codes.Internal, "internal error")
		}
	}()
	return handler(ctx, req)
}
