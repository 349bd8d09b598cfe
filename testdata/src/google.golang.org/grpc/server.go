package grpc

import (
	"context"
	"net"
	"net/http"
	"time"

	"google.golang.org/grpc/credentials"
	"google.golang.org/grpc/metadata"
)

// MethodHandler is a function type that processes a unary RPC method call.
type MethodHandler func(srv any, ctx context.Context, dec func(any) error, interceptor UnaryServerInterceptor) (any, error)

// MethodDesc represents an RPC service's method specification.
type MethodDesc struct {
	MethodName string
	Handler    MethodHandler
}

// ServiceDesc represents an RPC service's specification.
type ServiceDesc struct {
	ServiceName string
	// The pointer to the service interface. Used to check whether the user
	// provided implementation satisfies the interface requirements.
	HandlerType any
	Methods     []MethodDesc
	Streams     []StreamDesc
	Metadata    any
}

// ServiceRegistrar wraps a single method that supports service registration.
type ServiceRegistrar interface {
	RegisterService(desc *ServiceDesc, impl any)
}

// Server is a gRPC server to serve RPC requests.
type Server struct {
	services map[string]any
}

var _ ServiceRegistrar = (*Server)(nil)
var _ http.Handler = (*Server)(nil)

// ServerOption sets options such as credentials, codec and keepalive parameters, etc.
type ServerOption interface {
	apply(*serverOptions)
}

type serverOptions struct{}

// EmptyServerOption does not alter the server configuration.
type EmptyServerOption struct{}

func (EmptyServerOption) apply(*serverOptions) {}

// NewServer creates a gRPC server which has no service registered and has not
// started to accept requests yet.
func NewServer(opt ...ServerOption) *Server {
	return &Server{services: make(map[string]any)}
}

// RegisterService registers a service and its implementation to the gRPC
// server.
func (s *Server) RegisterService(sd *ServiceDesc, ss any) {
	s.services[sd.ServiceName] = ss
}

// Serve accepts incoming connections on the listener lis.
func (s *Server) Serve(lis net.Listener) error { return nil }

// ServeHTTP implements the Go standard library's http.Handler interface.
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {}

// Stop stops the gRPC server.
func (s *Server) Stop() {}

// GracefulStop stops the gRPC server gracefully.
func (s *Server) GracefulStop() {}

// UnaryInterceptor returns a ServerOption that sets the UnaryServerInterceptor
// for the server.
func UnaryInterceptor(i UnaryServerInterceptor) ServerOption { return EmptyServerOption{} }

// ChainUnaryInterceptor returns a ServerOption that specifies the chained
// interceptor for unary RPCs.
func ChainUnaryInterceptor(interceptors ...UnaryServerInterceptor) ServerOption {
	return EmptyServerOption{}
}

// StreamInterceptor returns a ServerOption that sets the StreamServerInterceptor
// for the server.
func StreamInterceptor(i StreamServerInterceptor) ServerOption { return EmptyServerOption{} }

// ChainStreamInterceptor returns a ServerOption that specifies the chained
// interceptor for streaming RPCs.
func ChainStreamInterceptor(interceptors ...StreamServerInterceptor) ServerOption {
	return EmptyServerOption{}
}

// Creds returns a ServerOption that sets credentials for server connections.
func Creds(c credentials.TransportCredentials) ServerOption { return EmptyServerOption{} }

// ConnectionTimeout returns a ServerOption that sets the timeout for
// connection establishment.
func ConnectionTimeout(d time.Duration) ServerOption { return EmptyServerOption{} }

// UnknownServiceHandler returns a ServerOption that allows for adding a custom
// unknown service handler.
func UnknownServiceHandler(streamHandler StreamHandler) ServerOption { return EmptyServerOption{} }

// SetHeader sets the header metadata to be sent from the server to the client.
func SetHeader(ctx context.Context, md metadata.MD) error { return nil }

// SendHeader sends header metadata.
func SendHeader(ctx context.Context, md metadata.MD) error { return nil }

// SetTrailer sets the trailer metadata that will be sent when an RPC returns.
func SetTrailer(ctx context.Context, md metadata.MD) error { return nil }

// Method returns the method string for the server context.
func Method(ctx context.Context) (string, bool) { return "", false }
