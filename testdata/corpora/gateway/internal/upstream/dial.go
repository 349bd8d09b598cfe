// Package upstream dials the gateway's upstream dependencies.
package upstream

import (
	"strings"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials/insecure"

	"example.test/gateway/internal/clientx"
)

// Options tune an upstream connection.
type Options struct {
	DefaultTimeout time.Duration
	Attempts       int
}

// Dial returns a connection to target with the gateway's standard client
// interceptors: request-id propagation, retries of idempotent calls, and a
// default deadline for calls that have none.
func Dial(target string, o Options) (*grpc.ClientConn, error) {
	return grpc.NewClient(target,
		grpc.WithTransportCredentials(insecure.NewCredentials()),
		grpc.WithChainUnaryInterceptor(
			clientx.PropagateRequestID(),
			clientx.DefaultDeadline(o.DefaultTimeout),
			clientx.Retry(o.Attempts, 50*time.Millisecond, idempotent),
		),
		grpc.WithChainStreamInterceptor(clientx.StreamPropagateRequestID()),
	)
}

func idempotent(method string) bool {
	i := strings.LastIndexByte(method, '/')
	name := method[i+1:]
	return strings.HasPrefix(name, "Get") || strings.HasPrefix(name, "List") || name == "Check" || name == "Introspect"
}
