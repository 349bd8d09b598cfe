// Package credentials is a type-checking stub of
// google.golang.org/grpc/credentials.
package credentials

import (
	"context"
	"net"
)

// ProtocolInfo provides information regarding the gRPC wire protocol version,
// security protocol, security protocol version in use, server name, etc.
type ProtocolInfo struct {
	ProtocolVersion  string
	SecurityProtocol string
	SecurityVersion  string
	ServerName       string
}

// AuthInfo defines the common interface for the auth information the users
// are interested in.
type AuthInfo interface {
	AuthType() string
}

// TransportCredentials defines the common interface for all the live gRPC
// wire protocols and supported transport security protocols.
type TransportCredentials interface {
	ClientHandshake(context.Context, string, net.Conn) (net.Conn, AuthInfo, error)
	ServerHandshake(net.Conn) (net.Conn, AuthInfo, error)
	Info() ProtocolInfo
	Clone() TransportCredentials
	OverrideServerName(string) error
}

// PerRPCCredentials defines the common interface for the credentials which
// need to attach security information to every RPC.
type PerRPCCredentials interface {
	GetRequestMetadata(ctx context.Context, uri ...string) (map[string]string, error)
	RequireTransportSecurity() bool
}
