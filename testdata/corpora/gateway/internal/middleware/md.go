package middleware

import (
	"context"
	"strings"

	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/metadata"
	"google.golang.org/grpc/peer"
	"google.golang.org/grpc/status"
)

func firstMD(ctx context.Context, key string) string {
	md, ok := metadata.FromIncomingContext(ctx)
	if !ok {
		return ""
	}
	if v := md.Get(key); len(v) > 0 {
		return v[0]
	}
	return ""
}

func bearer(ctx context.Context) (string, error) {
	h := firstMD(ctx, "authorization")
	if h == "" {
		return "", status.Error(codes.Unauthenticated, "missing authorization header")
	}
	tok, ok := strings.CutPrefix(h, "Bearer ")
	if !ok || tok == "" {
		return "", status.Error(codes.Unauthenticated, "authorization header is not a bearer token")
	}
	return tok, nil
}

func peerAddr(ctx context.Context) string {
	if p, ok := peer.FromContext(ctx); ok && p.Addr != nil {
		return p.Addr.String()
	}
	return ""
}

// service returns "edge.v1.EdgeService" for "/edge.v1.EdgeService/GetRoute".
func service(fullMethod string) string {
	s := strings.TrimPrefix(fullMethod, "/")
	if i := strings.IndexByte(s, '/'); i >= 0 {
		return s[:i]
	}
	return s
}
