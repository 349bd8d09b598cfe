package agentsvc

import (
	"context"
	"encoding/json"
	"log/slog"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/grpc/peer"
	"google.golang.org/grpc/status"

	agentv1 "example.test/clients/gen/agent/v1"
	"example.test/clients/pkg/sdk"
)

// AuditInterceptor records every task run on the agent in the audit queue.
func AuditInterceptor(c *sdk.Client, log *slog.Logger) grpc.UnaryServerInterceptor {
	return func(ctx context.Context, req any, info *grpc.UnaryServerInfo, handler grpc.UnaryHandler) (any, error) {
		start := time.Now()
		resp, err := handler(ctx, req)
		if info.FullMethod != agentv1.AgentService_RunTask_FullMethodName {
			return resp, err
		}
		entry := map[string]any{
			"kind":     req.(*agentv1.RunTaskRequest).GetKind(),
			"code":     status.Code(err).String(),
			"duration": time.Since(start).String(),
		}
		if p, ok := peer.FromContext(ctx); ok {
			entry["peer"] = p.Addr.String()
		}
		payload, _ := json.Marshal(entry)
		if _, aerr := c.EnqueueJob(ctx, "agent-audit", payload); aerr != nil { // OK
			log.Warn("task not audited", "err", aerr)
		}
		return resp, err
	}
}
