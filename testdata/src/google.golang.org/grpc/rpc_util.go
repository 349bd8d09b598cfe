package grpc

import (
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/metadata"
	"google.golang.org/grpc/status"
)

// CallOption configures a Call before it starts or extracts information from
// a Call after it completes.
type CallOption interface {
	before(*callInfo) error
	after(*callInfo, *csAttempt)
}

type callInfo struct{}

type csAttempt struct{}

// EmptyCallOption does not alter the Call configuration.
type EmptyCallOption struct{}

func (EmptyCallOption) before(*callInfo) error      { return nil }
func (EmptyCallOption) after(*callInfo, *csAttempt) {}

// StaticMethod returns a CallOption which specifies that a call is being made
// to a method that is static, which means the method is known at compile time
// and doesn't change at runtime.
func StaticMethod() CallOption { return EmptyCallOption{} }

// Header returns a CallOptions that retrieves the header metadata for a unary
// RPC.
func Header(md *metadata.MD) CallOption { return EmptyCallOption{} }

// Trailer returns a CallOptions that retrieves the trailer metadata for a
// unary RPC.
func Trailer(md *metadata.MD) CallOption { return EmptyCallOption{} }

// WaitForReady configures the RPC's behavior when the client is in
// TRANSIENT_FAILURE.
func WaitForReady(waitForReady bool) CallOption { return EmptyCallOption{} }

// OnFinish returns a CallOption that configures a callback to be called when
// the call completes.
func OnFinish(onFinish func(err error)) CallOption { return EmptyCallOption{} }

// Code returns the error code for err if it was produced by the rpc system.
//
// Deprecated: use status.Code instead.
func Code(err error) codes.Code { return status.Code(err) }

// Errorf returns an error containing an error code and a description.
//
// Deprecated: use status.Errorf instead.
func Errorf(c codes.Code, format string, a ...any) error {
	return status.Errorf(c, format, a...)
}

// The SupportPackageIsVersion variables are referenced from generated protocol
// buffer files to ensure compatibility with the gRPC version used.
const (
	SupportPackageIsVersion3 = true
	SupportPackageIsVersion4 = true
	SupportPackageIsVersion5 = true
	SupportPackageIsVersion6 = true
	SupportPackageIsVersion7 = true
	SupportPackageIsVersion8 = true
	SupportPackageIsVersion9 = true
)
