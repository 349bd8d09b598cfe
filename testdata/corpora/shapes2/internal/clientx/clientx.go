// Package clientx dials downstream services with the module's defaults.
package clientx

import (
	"time"

	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials/insecure"

	"example.test/shapes2/internal/interceptors"
)

// Dial returns a conn whose unary calls get a 5s deadline when they have none.
func Dial(target string) (*grpc.ClientConn, error) {
	return grpc.NewClient(target,
		grpc.WithTransportCredentials(insecure.NewCredentials()),
		grpc.WithUnaryInterceptor(interceptors.DefaultDeadline(5*time.Second)),
	)
}

// DialPlain returns a conn with no defaults.
func DialPlain(target string) (*grpc.ClientConn, error) {
	return grpc.NewClient(target, grpc.WithTransportCredentials(insecure.NewCredentials()))
}
