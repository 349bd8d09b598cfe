// Package retry is a stub of go-grpc-middleware v2's retry interceptor: call options that
// retry a unary call, each attempt bounded by WithPerRetryTimeout.
package retry

import (
	"time"

	"google.golang.org/grpc"
)

// CallOption is a grpc.CallOption the retry interceptor reads.
type CallOption struct {
	grpc.EmptyCallOption
	apply func()
}

// WithMax caps the number of attempts.
func WithMax(n uint) CallOption { return CallOption{} }

// WithPerRetryTimeout bounds every attempt with a deadline of its own.
func WithPerRetryTimeout(d time.Duration) CallOption { return CallOption{} }
