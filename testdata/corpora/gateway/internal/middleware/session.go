package middleware

import (
	"context"
	"log"

	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	"example.test/gateway/internal/tunnels"
)

// TunnelSessions pins bidi Tunnel streams to this node in the tunnel registry
// for as long as the stream runs, so reconnecting clients find their upstream.
func TunnelSessions(reg *tunnels.Registry) grpc.StreamServerInterceptor {
	return func(srv any, ss grpc.ServerStream, info *grpc.StreamServerInfo, handler grpc.StreamHandler) error {
		if !info.IsClientStream || !info.IsServerStream {
			return handler(srv, ss)
		}
		sid := firstMD(ss.Context(), "x-tunnel-session")
		if sid == "" {
			return status.Error(codes.InvalidArgument, "x-tunnel-session is required")
		}
		sctx := context.WithoutCancel(ss.Context())
		// ^BUG: detach
		if err := reg.Open(sctx, sid); err != nil {
			return status.Errorf(codes.Unavailable, "register tunnel: %v", err)
		}
		defer func() {
			if err := reg.Release(sctx, sid); err != nil {
				log.Printf("release tunnel %s: %v", sid, err)
			}
		}()
		return handler(srv, wrapServerStream(ss, sctx))
	}
}
