// Package clients wraps the downstream services ordersd depends on: the
// payments and inventory gRPC services and the shipping-rate HTTP API.
package clients

import (
	"fmt"
	"time"

	"github.com/grpc-ecosystem/go-grpc-middleware/v2/interceptors/retry"
	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/credentials/insecure"
	"google.golang.org/grpc/keepalive"
)

// Dial opens a client connection to a downstream gRPC service with the
// retry policy every internal client uses. Unavailable and ResourceExhausted
// are retried three times with exponential back-off.
func Dial(target string, extra ...grpc.DialOption) (*grpc.ClientConn, error) {
	opts := []grpc.DialOption{
		grpc.WithTransportCredentials(insecure.NewCredentials()),
		grpc.WithKeepaliveParams(keepalive.ClientParameters{Time: 30 * time.Second, PermitWithoutStream: true}),
		grpc.WithChainUnaryInterceptor(
			retry.UnaryClientInterceptor(
				retry.WithMax(3),
				retry.WithBackoff(retry.BackoffExponential(50*time.Millisecond)),
				retry.WithCodes(codes.Unavailable, codes.ResourceExhausted),
			),
		),
	}
	conn, err := grpc.NewClient(target, append(opts, extra...)...)
	if err != nil {
		return nil, fmt.Errorf("clients: dial %s: %w", target, err)
	}
	return conn, nil
}
