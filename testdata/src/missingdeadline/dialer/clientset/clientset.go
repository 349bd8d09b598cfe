// Package clientset hands out catalog clients behind an interface, as a service's client set
// does: each client is on a connection whose unary calls get a default deadline from
// go-grpc-middleware's timeout interceptor, when a timeout is configured. Its Plain set's
// connections get none.
package clientset

import (
	"context"
	"io"
	"time"

	"example.com/gen/catalogpb"
	"github.com/grpc-ecosystem/go-grpc-middleware/v2/interceptors/timeout"
	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials/insecure"
)

// Clientset opens catalog clients.
type Clientset interface {
	NewCatalogClient() (io.Closer, catalogpb.CatalogClient, error)
	NewPingerClient() (io.Closer, PingerClient, error)
}

// New returns the client set of the catalog at addr, whose calls time out after d.
func New(addr string, d time.Duration) Clientset { return &clientSet{addr: addr, timeout: d} }

type clientSet struct {
	addr    string
	timeout time.Duration
}

func (c *clientSet) NewCatalogClient() (io.Closer, catalogpb.CatalogClient, error) { // want NewCatalogClient:"defaultingConn\\[0 1\\]"
	conn, err := NewConnection(c.addr, c.timeout)
	if err != nil {
		return nil, nil, err
	}
	return conn, catalogpb.NewCatalogClient(conn), nil
}

// NewPingerClient opens a client of the package's own generated Pinger service.
func (c *clientSet) NewPingerClient() (io.Closer, PingerClient, error) { // want NewPingerClient:"defaultingConn\\[0 1\\]"
	conn, err := NewConnection(c.addr, c.timeout)
	if err != nil {
		return nil, nil, err
	}
	return conn, NewPingerClient(conn), nil
}

// NewConnection dials addr with a default deadline for unary calls, when d > 0.
func NewConnection(addr string, d time.Duration) (*grpc.ClientConn, error) { // want NewConnection:"defaultingConn\\[0\\]"
	interceptors := []grpc.UnaryClientInterceptor{tag}
	if d > 0 {
		interceptors = append(interceptors, timeout.UnaryClientInterceptor(d))
	}
	return grpc.NewClient(addr,
		grpc.WithTransportCredentials(insecure.NewCredentials()),
		grpc.WithChainUnaryInterceptor(interceptors...),
	)
}

func tag(ctx context.Context, method string, req, reply any, cc *grpc.ClientConn, invoker grpc.UnaryInvoker, opts ...grpc.CallOption) error {
	return invoker(ctx, method, req, reply, cc, opts...)
}

// Plain opens clients on connections with no default deadline.
type Plain interface {
	Open() (io.Closer, catalogpb.CatalogClient, error)
}

// NewPlain returns a Plain set.
func NewPlain(addr string) Plain { return plainSet{addr: addr} }

type plainSet struct{ addr string }

func (p plainSet) Open() (io.Closer, catalogpb.CatalogClient, error) {
	conn, err := grpc.NewClient(p.addr, grpc.WithTransportCredentials(insecure.NewCredentials()))
	if err != nil {
		return nil, nil, err
	}
	return conn, catalogpb.NewCatalogClient(conn), nil
}
