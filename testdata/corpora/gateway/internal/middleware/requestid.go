package middleware

import (
	"context"
	"crypto/rand"
	"encoding/hex"

	"google.golang.org/grpc"
	"google.golang.org/grpc/metadata"
)

type requestIDKey struct{}

// RequestID returns the request id on ctx.
func RequestID(ctx context.Context) string {
	id, _ := ctx.Value(requestIDKey{}).(string)
	return id
}

func withRequestID(ctx context.Context, id string) context.Context {
	return context.WithValue(ctx, requestIDKey{}, id)
}

func newRequestID() string {
	var b [12]byte
	_, _ = rand.Read(b[:])
	return hex.EncodeToString(b[:])
}

// UnaryRequestID takes x-request-id from the caller or mints one, and echoes it
// in the response headers.
var UnaryRequestID grpc.UnaryServerInterceptor = func(ctx context.Context, req any, info *grpc.UnaryServerInfo, handler grpc.UnaryHandler) (any, error) {
	id := firstMD(ctx, "x-request-id")
	if id == "" {
		id = newRequestID()
	}
	ctx = withRequestID(ctx, id)
	_ = grpc.SetHeader(ctx, metadata.Pairs("x-request-id", id)) // OK
	return handler(ctx, req)
}

// StreamRequestID is UnaryRequestID for streams.
func StreamRequestID(srv any, ss grpc.ServerStream, info *grpc.StreamServerInfo, handler grpc.StreamHandler) error {
	id := firstMD(ss.Context(), "x-request-id")
	if id == "" {
		id = newRequestID()
	}
	_ = ss.SetHeader(metadata.Pairs("x-request-id", id))
	return handler(srv, wrapServerStream(ss, withRequestID(ss.Context(), id))) // OK
}
