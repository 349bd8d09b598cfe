package telemetry

import (
	"context"
	"log/slog"
	"strings"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/grpc/status"

	"example.test/fleet/internal/store"
)

// UnaryAudit records every mutating unary call in the audit log.
func UnaryAudit(audit *store.AuditLog, log *slog.Logger) grpc.UnaryServerInterceptor {
	return func(ctx context.Context, req any, info *grpc.UnaryServerInfo, handler grpc.UnaryHandler) (any, error) {
		resp, err := handler(ctx, req)
		if !mutating(info.FullMethod) {
			return resp, err
		}
		e := store.AuditEntry{Actor: actorFrom(ctx), Action: info.FullMethod, Detail: status.Code(err).String()}
		if werr := audit.Write(context.Background(), e); werr != nil { // BUG: ctxbackground
			log.ErrorContext(ctx, "audit write failed", "method", info.FullMethod, "err", werr) // OK
		}
		return resp, err
	}
}

// StreamLogging logs the duration and outcome of every streaming call.
func StreamLogging(log *slog.Logger) grpc.StreamServerInterceptor {
	return func(srv any, ss grpc.ServerStream, info *grpc.StreamServerInfo, handler grpc.StreamHandler) error {
		start := time.Now()
		err := handler(srv, ss)
		log.InfoContext(ss.Context(), "stream closed", "method", info.FullMethod, "code", status.Code(err).String(), "took", time.Since(start)) // OK
		return err
	}
}

func mutating(fullMethod string) bool {
	i := strings.LastIndexByte(fullMethod, '/')
	name := fullMethod[i+1:]
	return !strings.HasPrefix(name, "Get") && !strings.HasPrefix(name, "Stream") && !strings.HasPrefix(name, "List")
}
