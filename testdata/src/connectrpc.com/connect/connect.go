// Package connect is a type-checking stub of connectrpc.com/connect (v1.19.1)
// for analysistest. Declarations match the real API; bodies are minimal.
package connect

import (
	"context"
	"net/http"
	"net/url"
)

// Version-compatibility constants referenced from generated code.
const (
	IsAtLeastVersion0_0_1  = true
	IsAtLeastVersion0_1_0  = true
	IsAtLeastVersion1_7_0  = true
	IsAtLeastVersion1_13_0 = true
)

// StreamType describes whether the client, server, neither, or both is
// streaming.
type StreamType uint8

// The stream types.
const (
	StreamTypeUnary  StreamType = 0b00
	StreamTypeClient StreamType = 0b01
	StreamTypeServer StreamType = 0b10
	StreamTypeBidi              = StreamTypeClient | StreamTypeServer
)

// StreamingHandlerConn is the server's view of a bidirectional message
// exchange.
type StreamingHandlerConn interface {
	Spec() Spec
	Peer() Peer

	Receive(any) error
	RequestHeader() http.Header

	Send(any) error
	ResponseHeader() http.Header
	ResponseTrailer() http.Header
}

// StreamingClientConn is the client's view of a bidirectional message
// exchange.
type StreamingClientConn interface {
	Spec() Spec
	Peer() Peer

	Send(any) error
	RequestHeader() http.Header
	CloseRequest() error

	Receive(any) error
	ResponseHeader() http.Header
	ResponseTrailer() http.Header
	CloseResponse() error
}

// Request is a wrapper around a message.
type Request[T any] struct {
	Msg *T

	spec   Spec
	peer   Peer
	header http.Header
	method string
}

// NewRequest wraps a generated request message.
func NewRequest[T any](message *T) *Request[T] {
	return &Request[T]{Msg: message}
}

// Any returns the concrete request message as an empty interface.
func (r *Request[_]) Any() any { return r.Msg }

// Spec returns the Spec for this RPC.
func (r *Request[_]) Spec() Spec { return r.spec }

// Peer describes the other party for this RPC.
func (r *Request[_]) Peer() Peer { return r.peer }

// Header returns the HTTP headers for this request.
func (r *Request[_]) Header() http.Header {
	if r.header == nil {
		r.header = make(http.Header)
	}
	return r.header
}

// HTTPMethod returns the HTTP method for this request.
func (r *Request[_]) HTTPMethod() string { return r.method }

func (r *Request[_]) internalOnly() {}

func (r *Request[_]) setRequestMethod(method string) { r.method = method }

// AnyRequest is the common method set of every Request, regardless of type
// parameter.
type AnyRequest interface {
	Any() any
	Spec() Spec
	Peer() Peer
	Header() http.Header
	HTTPMethod() string

	internalOnly()
	setRequestMethod(string)
}

// Response is a wrapper around a message.
type Response[T any] struct {
	Msg *T

	header  http.Header
	trailer http.Header
}

// NewResponse wraps a generated response message.
func NewResponse[T any](message *T) *Response[T] {
	return &Response[T]{Msg: message}
}

// Any returns the concrete response message as an empty interface.
func (r *Response[_]) Any() any { return r.Msg }

// Header returns the HTTP headers for this response.
func (r *Response[_]) Header() http.Header {
	if r.header == nil {
		r.header = make(http.Header)
	}
	return r.header
}

// Trailer returns the trailers for this response.
func (r *Response[_]) Trailer() http.Header {
	if r.trailer == nil {
		r.trailer = make(http.Header)
	}
	return r.trailer
}

func (r *Response[_]) internalOnly() {}

// AnyResponse is the common method set of every Response, regardless of type
// parameter.
type AnyResponse interface {
	Any() any
	Header() http.Header
	Trailer() http.Header

	internalOnly()
}

// HTTPClient is the interface connect expects HTTP clients to implement.
type HTTPClient interface {
	Do(*http.Request) (*http.Response, error)
}

// Spec is a description of a client call or a handler invocation.
type Spec struct {
	StreamType       StreamType
	Schema           any    // for protobuf RPCs, a protoreflect.MethodDescriptor
	Procedure        string // for example, "/acme.foo.v1.FooService/Bar"
	IsClient         bool   // otherwise we're in a handler
	IdempotencyLevel IdempotencyLevel
}

// Peer describes the other party to an RPC.
type Peer struct {
	Addr     string
	Protocol string
	Query    url.Values // server-only
}

// CallInfo represents information relevant to an RPC.
type CallInfo interface {
	Spec() Spec
	Peer() Peer
	RequestHeader() http.Header
	ResponseHeader() http.Header
	ResponseTrailer() http.Header
	HTTPMethod() string
}

// NewClientContext returns a new context with a CallInfo attached.
func NewClientContext(ctx context.Context) (context.Context, CallInfo) {
	return ctx, nil
}

// IdempotencyLevel is a value that declares how "idempotent" an RPC is.
type IdempotencyLevel int

// The idempotency levels.
const (
	IdempotencyUnknown       IdempotencyLevel = 0
	IdempotencyNoSideEffects IdempotencyLevel = 1
	IdempotencyIdempotent    IdempotencyLevel = 2
)
